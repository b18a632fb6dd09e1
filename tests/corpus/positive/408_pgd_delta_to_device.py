# source: https://github.com/pytorch/pytorch/issues/12923
# family: D
# pitfall: PGD attack creates the perturbation with requires_grad=True on the CPU and then moves it with .to(device)
# expect: line 15 — delta is the output of .to(), a non-leaf: delta.grad stays None after backward (the attack crashes on delta.grad.sign())

import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 10)).to(device).eval()


def pgd(x, y, eps=8 / 255, alpha=2 / 255, steps=10):
    delta = torch.zeros_like(x, requires_grad=True).to(device)
    for _ in range(steps):
        loss = F.cross_entropy(model(x + delta), y)
        loss.backward()
        with torch.no_grad():
            delta += alpha * delta.grad.sign()
            delta.clamp_(-eps, eps)
        delta.grad.zero_()
    return (x + delta).detach()


x_adv = pgd(torch.rand(4, 3, 32, 32, device=device), torch.randint(0, 10, (4,), device=device))
