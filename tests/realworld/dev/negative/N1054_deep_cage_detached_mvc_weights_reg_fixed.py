# source: https://github.com/yifita/deep_cage/issues/16
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: the author's fix: the stray weights.detach() line is commented out, so the regulariser reaches the cage
# mimics: positive/1054_deep_cage_detached_mvc_weights_reg.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


def mean_value_coordinates_3D(query, vertices):
    d = torch.cdist(query, vertices) + 1e-6
    w = 1.0 / d
    return w / w.sum(dim=-1, keepdim=True)


def deform_with_MVC(cage, cage_deformed, query, verbose=False):
    weights = mean_value_coordinates_3D(query, cage)
    # weights = weights.detach()
    deformed = torch.sum(weights.unsqueeze(-1) * cage_deformed.unsqueeze(1), dim=2)
    if verbose:
        return deformed, weights
    return deformed


class MVCRegularizer(nn.Module):
    def forward(self, weights):
        return torch.mean(torch.relu(-weights)) + torch.mean(weights.pow(2))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.cage_offset = nn.Parameter(torch.zeros(1, 8, 3))
        self.template = torch.rand(1, 8, 3)

    def forward(self, source_shape):
        cage = self.template + self.cage_offset
        deformed, weight = deform_with_MVC(cage, cage * 1.1, source_shape, verbose=True)
        return {"deformed": deformed, "weight": weight}


net = Net()
mvc_reg_loss = MVCRegularizer()
all_outputs = net(torch.rand(1, 20, 3))
loss = {}
loss["WREG"] = mvc_reg_loss(all_outputs["weight"]) * 1.0
print(loss["WREG"].requires_grad)
