# source: synthetic
# family: D
# pitfall: curve-fitting parameters are created with requires_grad=True and then cast with .double() before being passed to LBFGS
# expect: line 11 — .double() returns a non-leaf copy: the optimizer raises "can't optimize a non-leaf Tensor" (create with dtype=torch.float64 instead)

import torch

t = torch.linspace(0, 5, 100, dtype=torch.float64)
y_obs = 2.0 * torch.exp(-0.7 * t) + 0.05 * torch.randn(100, dtype=torch.float64)

theta = torch.tensor([1.0, 0.1], requires_grad=True).double()
optimizer = torch.optim.LBFGS([theta], lr=0.5, max_iter=50)


def closure():
    optimizer.zero_grad()
    a, k = theta
    loss = ((a * torch.exp(-k * t) - y_obs) ** 2).mean()
    loss.backward()
    return loss


for _ in range(5):
    optimizer.step(closure)
print(theta)
