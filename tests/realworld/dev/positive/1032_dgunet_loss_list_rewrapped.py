# source: https://github.com/MC-E/Deep-Generalized-Unfolding-Networks-for-Image-Restoration/issues/6
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: to avoid np.sum over a list of loss tensors the user packs the per-stage losses into torch.tensor([...], requires_grad=True), a new leaf without history, and the PSNR stops changing
# expect: line 40 — torch.tensor(list of loss tensors, requires_grad=True) copies the values into a fresh leaf; backward never reaches the network
# checked: ran, reproduces (the network's weights get no gradient)

import torch
import torch.nn as nn


class CharbonnierLoss(nn.Module):
    def __init__(self, eps=1e-3):
        super(CharbonnierLoss, self).__init__()
        self.eps = eps

    def forward(self, x, y):
        diff = x - y
        return torch.mean(torch.sqrt((diff * diff) + (self.eps * self.eps)))


class EdgeLoss(nn.Module):
    def forward(self, x, y):
        return torch.mean(torch.abs(x[..., 1:] - x[..., :-1] - (y[..., 1:] - y[..., :-1])))


model_restoration = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(3)])
optimizer = torch.optim.Adam(model_restoration.parameters(), lr=2e-4)
criterion_char = CharbonnierLoss()
criterion_edge = EdgeLoss()

for epoch in range(2):
    input_ = torch.rand(2, 3, 16, 16)
    target = torch.rand(2, 3, 16, 16)
    optimizer.zero_grad()
    restored = [stage(input_) for stage in model_restoration]

    # Compute loss at each stage
    loss_char = torch.tensor([criterion_char(restored[j], target) for j in range(len(restored))], requires_grad=True).sum()
    loss_edge = torch.tensor([criterion_edge(restored[j], target) for j in range(len(restored))], requires_grad=True).sum()
    loss = (loss_char) + (0.05 * loss_edge)

    loss.backward()
    optimizer.step()
