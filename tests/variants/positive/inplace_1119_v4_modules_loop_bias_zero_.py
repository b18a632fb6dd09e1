# source: variant of 1119_nnue_zero_virtual_feature_weights.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: weight init loop over self.modules(): m.bias.zero_() on each Linear's bias with grad mode on (the file also trains, so it is differentiated)
# expect: line 21 — m.bias.zero_() on a parameter reached through self.modules()
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
        self.reset_parameters()

    def reset_parameters(self):
        for m in self.modules():
            if isinstance(m, nn.Linear):
                m.bias.zero_()

    def forward(self, x):
        return self.body(x)


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loss = net(torch.randn(4, 8)).pow(2).mean()
loss.backward()
opt.step()
