import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(4, 4)
opt = torch.optim.SGD(lin.parameters(), lr=0.01)
for step in range(20):
    x = torch.randn(8, 4)
    opt.zero_grad()
    h = torch.sigmoid(lin(x))
    out = h * 2
    h.mul_(0.5)  # expect: GL306
    loss = out.sum() + h.sum()
    loss.backward()  # also: GL306
    opt.step()
