# source: variant of 1058_conv_y_grad_none_variable.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: forward() keeps the conv output on self (self.y = self.conv(x)); after backward, model.y.grad is None because y is not a leaf
# expect: line 26 — model.y.grad read on the stored intermediate
# checked: ran, reproduces (prints None)
import torch
import torch.nn as nn


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 1, 3)

    def forward(self, x):
        self.y = self.conv(x)
        return self.y.sum()


model = Probe()
x = torch.rand(8, 1, 5, 5, requires_grad=True)
final = model(x)
final.backward()
print('y.grad', model.y.grad)
