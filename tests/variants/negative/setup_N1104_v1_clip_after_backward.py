# source: variant of 1104_famo_clip_before_backward.py
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: none — the weighting object's backward clips after total.backward() (the fix)
# checked: ran, correct (update norm <= max_norm)
import torch
import torch.nn as nn


class UncertaintyWeighting(nn.Module):
    def __init__(self, n_tasks, max_norm=1.0):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(n_tasks))
        self.max_norm = max_norm

    def backward(self, losses, shared_parameters):
        total = (torch.exp(-self.log_vars) * losses + self.log_vars).sum()
        total.backward()
        if self.max_norm > 0:
            torch.nn.utils.clip_grad_norm_(shared_parameters, self.max_norm)
        return total


def train_epoch(model, weighting, optimizer, loader):
    for x, y in loader:
        optimizer.zero_grad()
        losses = ((model(x) - y) ** 2).mean(0)
        weighting.backward(losses, list(model.parameters()))
        optimizer.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(8, 2)
    w = UncertaintyWeighting(2, max_norm=1e-3)
    before = model.weight.detach().clone()
    opt = torch.optim.SGD(list(model.parameters()) + list(w.parameters()), lr=1.0)
    train_epoch(model, w, opt, [(torch.randn(16, 8) * 30, torch.randn(16, 2))])
    print("update norm:", (model.weight - before).norm().item())
