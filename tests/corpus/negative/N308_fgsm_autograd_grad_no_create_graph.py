# source: https://pytorch.org/tutorials/beginner/fgsm_tutorial.html
# family: C
# negative: torch.autograd.grad without create_graph to get an input gradient for an FGSM example; the result is only used through .sign() as data, never differentiated
# mimics: torch.autograd.grad without create_graph=True
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01)


def fgsm(x, y, eps=0.1):
    x = x.clone().requires_grad_(True)
    (g,) = torch.autograd.grad(F.cross_entropy(model(x), y), x)
    return (x + eps * g.sign()).clamp(0, 1).detach()


for step in range(100):
    x, y = torch.rand(32, 1, 28, 28), torch.randint(0, 10, (32,))
    x_adv = fgsm(x, y)
    loss = 0.5 * F.cross_entropy(model(x), y) + 0.5 * F.cross_entropy(model(x_adv), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
