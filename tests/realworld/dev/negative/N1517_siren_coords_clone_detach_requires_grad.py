# source: https://github.com/vsitzmann/siren/issues/12
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: the input coordinates are re-made into a fresh leaf with clone().detach().requires_grad_(True) on purpose, so derivatives of the output with respect to the coordinates can be taken; the network's parameters are untouched by this and still train
# mimics: detach().requires_grad_(True) re-wrapping a tensor inside forward
# expect: no finding
# checked: ran, no error

import torch
from torch import nn


class SineLayer(nn.Module):
    def __init__(self, in_features, out_features, omega_0=30):
        super().__init__()
        self.omega_0 = omega_0
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, input):
        return torch.sin(self.omega_0 * self.linear(input))


class Siren(nn.Module):
    def __init__(self, in_features, hidden_features, out_features):
        super().__init__()
        self.net = nn.Sequential(SineLayer(in_features, hidden_features), SineLayer(hidden_features, hidden_features), nn.Linear(hidden_features, out_features))

    def forward(self, coords):
        coords = coords.clone().detach().requires_grad_(True)  # allows to take derivative w.r.t. input
        output = self.net(coords)
        return output, coords


def gradient(y, x, grad_outputs=None):
    if grad_outputs is None:
        grad_outputs = torch.ones_like(y)
    return torch.autograd.grad(y, [x], grad_outputs=grad_outputs, create_graph=True)[0]


img_siren = Siren(in_features=2, hidden_features=32, out_features=1)
optim = torch.optim.Adam(lr=1e-4, params=img_siren.parameters())
model_input = torch.rand(1, 64, 2)
ground_truth = torch.rand(1, 64, 1)
model_output, coords = img_siren(model_input)
img_grad = gradient(model_output, coords)
loss = ((model_output - ground_truth) ** 2).mean() + 1e-3 * img_grad.pow(2).mean()
optim.zero_grad()
loss.backward()
optim.step()
