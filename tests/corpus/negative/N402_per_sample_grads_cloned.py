# source: https://pytorch.org/tutorials/intermediate/per_sample_grads.html
# family: D
# negative: per-sample gradients collected in a loop with p.grad.detach().clone(), so later zeroing/accumulation cannot alter the stored copies
# mimics: storing p.grad per sample across backward/zero_grad
# expect: no finding

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 10), torch.randn(8, 1)

per_sample = []
for i in range(x.size(0)):
    opt.zero_grad(set_to_none=False)
    nn.functional.mse_loss(model(x[i:i + 1]), y[i:i + 1]).backward()
    per_sample.append({n: p.grad.detach().clone() for n, p in model.named_parameters()})

norms = torch.stack([torch.sqrt(sum(g.pow(2).sum() for g in d.values())) for d in per_sample])
print(norms)
