# source: variant of 1034_cdpn_argmax_coordinates_loss.py
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the x/y/z coordinate bins are decoded in a list comprehension over the channel groups (o.argmax(dim=0) for o in out.unbind(0)) and stacked before the L1 loss; argmax has no gradient
# expect: line 25 — o.argmax(dim=0) over the bins in the comprehension: the decoded coordinates are integers without grad_fn
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad)

import torch
import torch.nn as nn

BINS = 64


class CoorHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 3 * (BINS + 1), 1)

    def forward(self, feat):
        return self.conv(feat).view(3, BINS + 1, *feat.shape[-2:])


def decode(out):
    coor = torch.stack([o.argmax(dim=0) for o in out.unbind(0)], dim=-1)
    return 2.0 * coor.float() / (BINS - 1) - 1.0


def train_step(head, optimizer, feat, target):
    loss = nn.functional.l1_loss(decode(head(feat)), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


head = CoorHead()
train_step(head, torch.optim.Adam(head.parameters()), torch.randn(1, 8, 8, 8), torch.rand(8, 8, 3) * 2 - 1)
