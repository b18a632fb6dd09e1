# a working program; --fix must not change what it prints (from the trust review's attack programs)
# safe-fix: GL205  (.detach(): .item() of this per-sample tensor raised)
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total = 0
for _ in range(3):
    opt.zero_grad()
    per_sample = (model(torch.randn(4, 3)) ** 2).squeeze(1)
    per_sample.mean().backward()
    opt.step()
    total += per_sample
print("per-sample totals", total)
