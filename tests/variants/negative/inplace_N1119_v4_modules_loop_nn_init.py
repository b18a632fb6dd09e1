# source: variant of 1119_nnue_zero_virtual_feature_weights.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — modules() init loop with nn.init
# checked: ran, no error (exit 0)
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
                nn.init.zeros_(m.bias)

    def forward(self, x):
        return self.body(x)


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loss = net(torch.randn(4, 8)).pow(2).mean()
loss.backward()
opt.step()
