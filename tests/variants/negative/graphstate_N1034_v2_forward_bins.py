# source: variant of 1034_cdpn_argmax_coordinates_loss.py
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# negative: fixed twin: a smooth surrogate (softmax / soft-argmax / straight-through / masked blend) keeps a gradient path
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class CoordHead(nn.Module):
    def __init__(self, bins=16):
        super().__init__()
        self.bins = bins
        self.conv = nn.Conv2d(3, 3 * bins, 1)

    def forward(self, x):
        b, _, h, w = x.shape
        logits = self.conv(x).view(b, 3, self.bins, h, w)
        grid = torch.arange(self.bins, dtype=logits.dtype).view(1, 1, -1, 1, 1)
        coor = (logits.softmax(dim=2) * grid).sum(dim=2)
        return 2.0 * coor / (self.bins - 1) - 1.0


model = CoordHead()
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.L1Loss()
for inp, target in [(torch.randn(1, 3, 8, 8), torch.rand(1, 3, 8, 8))]:
    loss = criterion(model(inp), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
