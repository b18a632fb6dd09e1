import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1)).half()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(20):
    x, y = torch.randn(64, 64).half(), torch.randn(64, 1).half()
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean() * 1e-3
    loss.backward()  # expect: GL406
    opt.step()
