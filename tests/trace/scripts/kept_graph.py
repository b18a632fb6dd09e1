import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
history = []
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    history.append(loss)  # expect: GL205
