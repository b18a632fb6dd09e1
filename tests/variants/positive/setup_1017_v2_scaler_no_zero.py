# source: variant of 1017_wekws_executor_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: AMP spelling: scaler.scale(loss).backward(), scaler.step(optimizer), scaler.update() for every batch, but zero_grad is never called
# expect: line 19 — scaler.scale(loss).backward() accumulates into the previous batches' gradients
# checked: ran, reproduces (post-accumulate hook: gradient seen by the 2nd step == 2x the single-batch gradient)
import torch
import torch.nn as nn


def train_one_epoch(model, optimizer, scaler, data_loader, device, use_amp=False):
    model.train()
    for feats, target in data_loader:
        feats, target = feats.to(device), target.to(device)
        with torch.autocast(device_type="cpu", enabled=use_amp):
            logits = model(feats)
            loss = nn.functional.cross_entropy(logits, target)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        scaler.step(optimizer)
        scaler.update()


if __name__ == "__main__":
    model = nn.Linear(40, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    seen = []
    model.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(2, 40), torch.tensor([0, 1]))
    train_one_epoch(model, optimizer, scaler, [b, b], "cpu")
    print("accumulated:", torch.allclose(seen[1], 2 * seen[0]))
