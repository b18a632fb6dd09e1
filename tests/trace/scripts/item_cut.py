import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(8, 1)
scale = nn.Parameter(torch.ones(1))
opt = torch.optim.SGD(list(model.parameters()) + [scale], lr=0.01)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    opt.zero_grad()
    s = scale.item()  # expect: GL101
    loss = nn.functional.mse_loss(model(x) * s, y)
    loss.backward()
    opt.step()
