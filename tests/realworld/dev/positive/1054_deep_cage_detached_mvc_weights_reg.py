# source: https://github.com/yifita/deep_cage/issues/16
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: the mean-value-coordinate weights are detached inside the deformation function, and the same tensor is returned for the WREG regulariser, so mvc_weight has no effect whatever its value
# expect: line 21 — weights.detach() cuts the regularised tensor from the graph; the WREG loss term has no gradient
# checked: ran, reproduces (the regulariser contributes no gradient to the cage)

import torch
import torch.nn as nn


def mean_value_coordinates_3D(query, vertices):
    d = torch.cdist(query, vertices) + 1e-6
    w = 1.0 / d
    return w / w.sum(dim=-1, keepdim=True)


def deform_with_MVC(cage, cage_deformed, query, verbose=False):
    weights = mean_value_coordinates_3D(query, cage)
    weights = weights.detach()
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
