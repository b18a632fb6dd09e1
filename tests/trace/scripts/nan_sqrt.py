import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(20):
    x = torch.randn(8, 4)
    x[0] = 0.0
    opt.zero_grad()
    out = model(x) * (x.abs().sum(1, keepdim=True) > 0)
    norm = torch.sqrt((out ** 2).sum(1))  # expect: GL603
    loss = norm.mean()
    loss.backward()
    opt.step()
