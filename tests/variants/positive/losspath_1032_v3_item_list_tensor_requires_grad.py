# source: variant of 1032_dgunet_loss_list_rewrapped.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: the stage losses are turned into numbers with .item() inside the list comprehension and packed into torch.tensor([...], requires_grad=True); the new leaf has no history, so the PSNR never changes
# expect: line 25 — torch.tensor([... .item() ...], requires_grad=True) is a fresh leaf built from numbers; backward never reaches the network
# checked: ran, reproduces (the network's weights get no gradient)

import torch
import torch.nn as nn


def charbonnier(x, y, eps=1e-3):
    return torch.mean(torch.sqrt((x - y) ** 2 + eps ** 2))


model_restoration = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(3)])
optimizer = torch.optim.Adam(model_restoration.parameters(), lr=2e-4)

for epoch in range(2):
    input_ = torch.rand(2, 3, 16, 16)
    target = torch.rand(2, 3, 16, 16)
    optimizer.zero_grad()
    restored = [stage(input_) for stage in model_restoration]
    loss = torch.tensor([charbonnier(r, target).item() for r in restored], requires_grad=True).sum()
    loss.backward()
    optimizer.step()
print(model_restoration[0].weight.grad)
