# a working program; --fix must not change what it prints (from the trust review's attack programs)
# safe-fix: none
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
model(torch.randn(4, 3)).sum().backward()
grads = []
for p in model.parameters():
    grads.append(p.grad)
for g in grads:
    g.mul_(0.0)  # clip/scale the gradients in place through the kept references
opt.step()
print("weight after step", model.weight.data)
