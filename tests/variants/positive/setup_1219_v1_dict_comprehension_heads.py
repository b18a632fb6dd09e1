# source: variant of 1219_module_parameters_in_plain_dicts.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: per-task heads built with a dict comprehension and kept in a plain dict (nn.ModuleDict needed)
# expect: line 16 — self.heads = {task: nn.Linear(...) for ...} is a plain dict: not registered
# checked: ran, reproduces (the listed layers are missing from model.parameters()/optimizer; weights unchanged after step)
import torch
import torch.nn as nn


class MultiTask(nn.Module):
    def __init__(self, tasks, dim=8):
        super().__init__()
        self.backbone = nn.Linear(4, dim)
        self.heads = {t: nn.Linear(dim, n) for t, n in tasks.items()}

    def forward(self, x, task):
        return self.heads[task](torch.relu(self.backbone(x)))


if __name__ == "__main__":
    model = MultiTask({"cls": 3, "reg": 1})
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    before = model.heads["cls"].weight.clone()
    optimizer.zero_grad()
    model(torch.randn(2, 4), "cls").pow(2).mean().backward()
    optimizer.step()
    print("head unchanged after step:", torch.equal(before, model.heads["cls"].weight))
