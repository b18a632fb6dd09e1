# source: variant of 1034_cdpn_argmax_coordinates_loss.py
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the model's forward decodes binned coordinates with torch.argmax and returns them; the training loop's L1 loss on the returned coordinates has no gradient
# expect: line 21 — torch.argmax over the bins inside forward()
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
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
        coor = torch.argmax(logits, dim=2).float()
        return 2.0 * coor / (self.bins - 1) - 1.0


model = CoordHead()
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.L1Loss()
for inp, target in [(torch.randn(1, 3, 8, 8), torch.rand(1, 3, 8, 8))]:
    loss = criterion(model(inp), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
