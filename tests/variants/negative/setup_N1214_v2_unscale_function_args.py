# source: variant of 1214_unet_clip_scaled_grads_without_unscale.py
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: none — scaler passed as argument; scaler.unscale_(optimizer) before clip_grad_norm_
# checked: ran on CPU with torch.amp.GradScaler("cpu"), correct (step used grad norm 1.0 = max_norm)
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_


def train_one_epoch(model, loader, optimizer, scaler, max_norm=1.0):
    model.train()
    for step, (x, y) in enumerate(loader):
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            out = model(x)
            loss = nn.functional.cross_entropy(out.float(), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        clip_grad_norm_(model.parameters(), max_norm)
        scaler.step(optimizer)
        scaler.update()


if __name__ == "__main__":
    model = nn.Linear(8, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    scaler = torch.amp.GradScaler("cpu")
    x, y = torch.randn(4, 8) * 5, torch.randint(0, 3, (4,))
    seen = []
    optimizer.register_step_pre_hook(
        lambda opt, args, kwargs: seen.append(torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()))
    train_one_epoch(model, [(x, y)], optimizer, scaler, max_norm=1.0)
    print("grad norm used by the step:", seen)
