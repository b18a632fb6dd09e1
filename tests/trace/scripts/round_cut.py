import torch
import torch.nn as nn

torch.manual_seed(0)
quant = nn.Linear(8, 8)
head = nn.Linear(8, 1)
opt = torch.optim.SGD(list(quant.parameters()) + list(head.parameters()), lr=0.01)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    codes = torch.round(quant(x) * 4) / 4  # expect: GL410
    loss = nn.functional.mse_loss(head(codes), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
