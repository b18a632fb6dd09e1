import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()  # expect: GL302
    opt.step()
