# source: https://github.com/pytorch/pytorch/issues/1291
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: the layers are instantiated inside forward(), so the module has no registered parameters (and every call uses fresh random weights that no optimizer can train)
# expect: line 17 — torch.nn.Linear(...) created in forward is not a submodule: list(model.parameters()) is empty and its weights are re-created on every call
# checked: ran, reproduces (parameters() is empty)

import torch


class ThreeLayerNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super(ThreeLayerNet, self).__init__()

    def forward(self, x):
        h_relu = torch.nn.Linear(D_in, H)(x).clamp(min=0)
        h_relu = torch.nn.Linear(H, H)(h_relu).clamp(min=0)
        y_pred = torch.nn.Linear(H, D_out)(h_relu)
        return y_pred


D_in, H, D_out = 1000, 100, 10
model = ThreeLayerNet(D_in, H, D_out)
print(list(model.parameters()))
