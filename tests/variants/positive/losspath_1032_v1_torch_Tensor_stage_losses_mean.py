# source: variant of 1032_dgunet_loss_list_rewrapped.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: the per-stage losses are packed with the legacy constructor torch.Tensor([...]) and averaged; torch.Tensor copies the values into a new tensor without history, so backward fails (or, with .requires_grad_(), never reaches the network)
# expect: line 33 — torch.Tensor(list of loss tensors) copies the values; use torch.stack(stage_losses).mean()
# checked: ran, reproduces (the network's weights get no gradient)

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiStage(nn.Module):
    def __init__(self, n=3):
        super().__init__()
        self.stages = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(n)])

    def forward(self, x):
        outs = []
        for s in self.stages:
            x = x + s(x)
            outs.append(x)
        return outs


model = MultiStage()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
for epoch in range(2):
    inp, tgt = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
    optimizer.zero_grad()
    stage_losses = [F.l1_loss(o, tgt) for o in model(inp)]
    loss = torch.Tensor(stage_losses).mean().requires_grad_()
    loss.backward()
    optimizer.step()
print([p.grad for p in model.parameters()][0])
