# source: variant of 1015_conv1d_filters_in_list.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: per-scale heads appended in a loop to a list created from an empty list() call; never registered
# expect: line 15 — self.heads = list(): plain list that receives nn.Linear heads in the loop
# checked: ran, reproduces (the listed layers are missing from model.parameters()/optimizer; weights unchanged after step)
import torch
import torch.nn as nn


class MultiScaleHead(nn.Module):
    def __init__(self, channels=(4, 8, 16), n_out=3):
        super().__init__()
        self.heads = list()
        for c in channels:
            self.heads.append(nn.Linear(c, n_out))

    def forward(self, feats):
        return sum(h(f) for h, f in zip(self.heads, feats))


if __name__ == "__main__":
    model = MultiScaleHead()
    print("params:", len(list(model.parameters())), "(none registered)")
