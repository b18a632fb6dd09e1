# Correct: gradient accumulation over 4 micro-batches, cleared after each step.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
accum = 4
opt.zero_grad()
for i in range(40):
    x, y = torch.randn(8, 8), torch.randn(8, 1)
    loss = nn.functional.mse_loss(model(x), y) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        opt.step()
        opt.zero_grad()
