# source: variant of 1006_fpn_lateral_inplace_add.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: FPN features kept in a dict keyed by level; feats['p4'] += upsample(feats['p5']) where the entries are F.relu outputs
# expect: line 21 — feats[k_lo] += F.interpolate(...) on a saved ReLU output held in a dict
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [1, 8, 8, 8]], which is output 0 of Relu, is at version 1; expected ver)
import torch
import torch.nn as nn
import torch.nn.functional as F


class TopDown(nn.Module):
    def __init__(self, chans=(8, 16), out=8):
        super().__init__()
        self.lat = nn.ModuleDict({"p3": nn.Conv2d(chans[0], out, 1), "p4": nn.Conv2d(chans[1], out, 1)})

    def forward(self, c3, c4):
        feats = {"p3": F.relu(self.lat["p3"](c3)), "p4": F.relu(self.lat["p4"](c4))}
        k_lo, k_hi = "p3", "p4"
        feats[k_lo] += F.interpolate(feats[k_hi], scale_factor=2.0)
        return feats


td = TopDown()
out = td(torch.randn(1, 8, 8, 8), torch.randn(1, 16, 4, 4))
(out["p3"].sum() + out["p4"].sum()).backward()
