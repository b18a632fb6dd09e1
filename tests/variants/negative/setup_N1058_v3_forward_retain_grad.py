# source: variant of 1058_conv_y_grad_none_variable.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: none — forward stores the intermediate and calls retain_grad() on it, so model.y.grad is filled
# checked: ran, correct (y.grad populated)
import torch
import torch.nn as nn


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 1, 3)

    def forward(self, x):
        self.y = self.conv(x)
        self.y.retain_grad()
        return self.y.sum()


model = Probe()
x = torch.rand(8, 1, 5, 5, requires_grad=True)
final = model(x)
final.backward()
print('y.grad', model.y.grad.shape)
