# a 0-dim loss summed into a Python number: .item() gives the same total without the graphs
# safe-fix: GL205
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total = 0
for _ in range(3):
    opt.zero_grad()
    loss = model(torch.randn(4, 3)).pow(2).mean()
    loss.backward()
    opt.step()
    total += loss
print("mean loss", round(float(total) / 3, 5))
