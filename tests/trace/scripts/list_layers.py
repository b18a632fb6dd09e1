import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(8, 16)
        self.blocks = [nn.Linear(16, 16) for _ in range(3)]  # expect: GL602
        self.out = nn.Linear(16, 1)

    def forward(self, x):
        h = torch.relu(self.inp(x))
        for b in self.blocks:
            h = torch.relu(b(h))
        return self.out(h)


torch.manual_seed(0)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
