# source: variant of 1244_d2l_custom_linear_uses_weight_data.py
# framework: torch
# family: A
# kind: data-on-loss-path
# pitfall: a weight-standardised convolution normalises self.weight.data before F.conv2d; .data cuts the kernel from autograd, so the convolution's weight never receives a gradient
# expect: line 16 — the standardised kernel is built from self.weight.data; conv weights get no gradient
# checked: ran, reproduces (conv.weight.grad is None after backward; only the head is trained)

import torch
import torch.nn as nn
import torch.nn.functional as F


class WSConv2d(nn.Conv2d):
    def forward(self, x):
        w = self.weight.data
        w = (w - w.mean(dim=(1, 2, 3), keepdim=True)) / (w.std(dim=(1, 2, 3), keepdim=True) + 1e-5)
        return F.conv2d(x, w, self.bias, self.stride, self.padding)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = WSConv2d(3, 8, 3, padding=1, bias=False)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(F.relu(self.conv(x)).mean(dim=(2, 3)))


net = Net()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
x, y = torch.randn(4, 3, 8, 8), torch.randint(0, 2, (4,))
loss = F.cross_entropy(net(x), y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(net.conv.weight.grad)
