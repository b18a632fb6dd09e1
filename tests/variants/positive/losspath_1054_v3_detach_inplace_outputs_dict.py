# source: variant of 1054_deep_cage_detached_mvc_weights_reg.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: the deformation helper calls weights.detach_() in place before using them, and the same tensor is returned in the outputs dict for the regulariser; the regulariser term has no gradient
# expect: line 21 — weights.detach_() cuts the regularised tensor from the graph in place; the WREG loss term has no gradient
# checked: ran, reproduces (loss["WREG"].requires_grad is False)

import torch
import torch.nn as nn


def mean_value_coordinates(query, vertices):
    d = torch.cdist(query, vertices) + 1e-6
    w = 1.0 / d
    return w / w.sum(dim=-1, keepdim=True)


def deform(cage, cage_deformed, query):
    weights = mean_value_coordinates(query, cage)
    weights.detach_()
    deformed = torch.sum(weights.unsqueeze(-1) * cage_deformed.unsqueeze(1), dim=2)
    return deformed, weights


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.cage_offset = nn.Parameter(torch.zeros(1, 8, 3))
        self.template = torch.rand(1, 8, 3)

    def forward(self, source_shape):
        cage = self.template + self.cage_offset
        deformed, weight = deform(cage, cage * 1.1, source_shape)
        return {"deformed": deformed, "weight": weight}


net = Net()
optimizer = torch.optim.Adam(net.parameters())
outputs = net(torch.rand(1, 20, 3))
loss = {}
loss["WREG"] = (torch.relu(-outputs["weight"]).mean() + outputs["weight"].pow(2).mean()) * 1.0
print(loss["WREG"].requires_grad)
