# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: per-task losses are collected in a list and combined with torch.tensor(losses).sum(); the new tensor is a leaf without history, so backward fails
# expect: line 25 — torch.tensor(losses) copies the loss values into a leaf
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskTrainer:
    def __init__(self):
        self.backbone = nn.Linear(8, 16)
        self.heads = nn.ModuleList([nn.Linear(16, 1) for _ in range(3)])
        params = list(self.backbone.parameters()) + list(self.heads.parameters())
        self.optimizer = torch.optim.Adam(params)

    def total_loss(self, x, ys):
        feat = torch.relu(self.backbone(x))
        losses = []
        for head, y in zip(self.heads, ys):
            losses.append(F.mse_loss(head(feat), y))
        return torch.tensor(losses).sum()

    def step(self, x, ys):
        loss = self.total_loss(x, ys)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


MultiTaskTrainer().step(torch.randn(4, 8), [torch.randn(4, 1) for _ in range(3)])
