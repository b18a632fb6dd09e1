# source: https://pytorch.org/docs/stable/optim.html#optimizer-step-closure
# family: C
# negative: LBFGS calls the closure several times per step; each call recomputes the forward pass, so every backward has a fresh graph
# mimics: backward() executed repeatedly on the "same" loss
# expect: no finding

import torch

t = torch.linspace(0, 5, 100)
y_obs = 2.0 * torch.exp(-0.7 * t) + 0.05 * torch.randn(100)
theta = torch.tensor([1.0, 0.1], requires_grad=True)
optimizer = torch.optim.LBFGS([theta], lr=0.5, max_iter=20)


def closure():
    optimizer.zero_grad()
    a, k = theta
    loss = ((a * torch.exp(-k * t) - y_obs) ** 2).mean()
    loss.backward()
    return loss


for _ in range(5):
    loss = optimizer.step(closure)
print(theta.detach(), loss.item())
