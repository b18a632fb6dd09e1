import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    err = nn.functional.mse_loss(model(x), y).item()  # expect: GL101
    loss = torch.tensor(err, requires_grad=False)
    opt.zero_grad()
    loss.backward()  # also: GL101
    opt.step()
