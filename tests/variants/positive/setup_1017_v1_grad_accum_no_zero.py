# source: variant of 1017_wekws_executor_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: gradient-accumulation loop steps every accum_grad batches but never calls zero_grad, so each update carries all earlier windows' gradients
# expect: line 27 — loss.backward(); the `if (batch_idx + 1) % accum_grad == 0` block steps without clearing the gradients
# checked: ran, reproduces (second accumulation window holds 4 micro-batch grads instead of 2)
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_


class Executor:
    def __init__(self):
        self.step = 0

    def train(self, model, optimizer, data_loader, device, args):
        model.train()
        clip = args.get('grad_clip', 50.0)
        accum_grad = args.get('accum_grad', 2)
        for batch_idx, (feats, target) in enumerate(data_loader):
            feats = feats.to(device)
            target = target.to(device)
            logits = model(feats)
            loss = nn.functional.binary_cross_entropy_with_logits(logits.squeeze(-1), target.float())
            loss = loss / accum_grad
            loss.backward()
            if (batch_idx + 1) % accum_grad == 0:
                grad_norm = clip_grad_norm_(model.parameters(), clip)
                if torch.isfinite(grad_norm):
                    optimizer.step()
                self.step += 1


if __name__ == "__main__":
    model = nn.Linear(40, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    seen = []
    model.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(2, 40), torch.tensor([0, 1]))
    Executor().train(model, optimizer, [b] * 4, 'cpu', {})
    # window 2 should hold 2 micro-batch grads, but holds 4
    print("window-2 grad == 2x window-1 grad (never cleared):", torch.allclose(seen[3], 2 * seen[1]))
