# source: synthetic
# family: D
# pitfall: activation sparsification writes zeros into small tanh activations through h.data[...] = 0 inside forward()
# expect: line 18 — tanh's backward uses its saved output (1 - h**2); editing it via .data silently corrupts the gradient of the first layer

import torch
import torch.nn as nn


class SparseMLP(nn.Module):
    def __init__(self, d_in=64, d_h=256, d_out=10, thresh=0.05):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d_in, d_h), nn.Linear(d_h, d_out)
        self.thresh = thresh

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        h.data[h.data.abs() < self.thresh] = 0.0
        return self.fc2(h)


net = SparseMLP()
loss = nn.functional.cross_entropy(net(torch.randn(32, 64)), torch.randint(0, 10, (32,)))
loss.backward()
print(net.fc1.weight.grad.norm())  # computed with the edited activations
