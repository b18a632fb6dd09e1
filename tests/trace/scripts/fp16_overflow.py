import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(8, 8).half()
opt = torch.optim.SGD(lin.parameters(), lr=0.01)
for step in range(20):
    x = torch.randn(16, 8).half()
    opt.zero_grad()
    energy = torch.exp(lin(x) * 30)  # expect: GL604
    loss = energy.float().mean()
    loss.backward()
    opt.step()
