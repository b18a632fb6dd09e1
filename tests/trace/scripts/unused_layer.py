import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)
        self.aux = nn.Linear(8, 8)  # expect: GL601
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


torch.manual_seed(0)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(20):
    opt.zero_grad()
    loss = model(torch.randn(4, 8)).pow(2).mean()
    loss.backward()
    opt.step()
