import torch

model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    opt.zero_grad()
    model(torch.randn(2, 4)).sum().backward()
    opt.step()
    if step == 1:
        raise ValueError("the data loader ran dry")
