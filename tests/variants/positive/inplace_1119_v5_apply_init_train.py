# source: variant of 1119_nnue_zero_virtual_feature_weights.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: init function passed to model.apply(): m.weight.normal_(...) on every Linear with grad mode on, in a script that then trains
# expect: line 14 — m.weight.normal_(0.0, 0.02) inside the function given to model.apply
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn


def init_weights(m):
    if isinstance(m, nn.Linear):
        m.weight.normal_(0.0, 0.02)
        m.bias.fill_(0.0)


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
model.apply(init_weights)
opt = torch.optim.Adam(model.parameters())
loss = model(torch.randn(4, 8)).pow(2).mean()
loss.backward()
opt.step()
