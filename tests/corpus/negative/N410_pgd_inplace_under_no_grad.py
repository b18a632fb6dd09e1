# source: https://adversarial-ml-tutorial.org/adversarial_examples/
# family: D
# negative: PGD: the perturbation is a leaf created with requires_grad=True; its in-place update/projection happens under torch.no_grad(), then .grad is zeroed
# mimics: in-place update and clamp_ of a leaf that requires grad
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 10)).eval()


def pgd(x, y, eps=8 / 255, alpha=2 / 255, steps=10):
    delta = torch.zeros_like(x, requires_grad=True)
    for _ in range(steps):
        loss = F.cross_entropy(model(x + delta), y)
        loss.backward()
        with torch.no_grad():
            delta += alpha * delta.grad.sign()
            delta.clamp_(-eps, eps)
        delta.grad.zero_()
    return (x + delta).detach()


x_adv = pgd(torch.rand(4, 3, 32, 32), torch.randint(0, 10, (4,)))
