# source: negative twin of a variant of 1094_forum_one_sided_fd_float32.py
# framework: torch
# family: E
# kind: fd-float32
# negative: the data and target are float64, so the one-sided difference is accurate to ~1e-3
# mimics: positive/1094_v1_trainer_method_inplace.py
# expect: no finding
# checked: ran, ratios ~1.0005
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, criterion):
        self.model = model
        self.criterion = criterion

    def compute_loss(self, data, target):
        return self.criterion(self.model(data), target)

    def check_grad(self, data, target, eps=1e-3, n_checks=3):
        data = data.detach().requires_grad_(True)
        base = self.compute_loss(data, target)
        base.backward()
        analytic = data.grad.clone()
        ratios = []
        with torch.no_grad():
            for _ in range(n_checks):
                i = torch.randint(0, data.shape[0], ()).item()
                j = torch.randint(0, data.shape[1], ()).item()
                bumped = data.clone()
                bumped[i, j] += eps
                loss_plus = self.compute_loss(bumped, target)
                numeric = (loss_plus - base) / eps
                ratios.append((numeric / analytic[i, j]).item())
        return ratios


class Half(nn.Module):
    def forward(self, x):
        return (x + 1) / 2


trainer = Trainer(Half(), nn.MSELoss())
print(trainer.check_grad(torch.rand(64, 64, dtype=torch.float64), torch.rand(64, 64, dtype=torch.float64)))
