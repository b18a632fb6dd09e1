# source: variant of 1056_advertorch_fgsm_adv_grad_nonleaf.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: FGSM written as a function receiving the model; the adversarial batch it returns is the result of arithmetic + clamp (non-leaf), so its .grad after backward is None
# expect: line 26 — x_adv.grad of the non-leaf FGSM output is None (.clone() fails)
# checked: ran, reproduces (AttributeError: 'NoneType' object has no attribute 'clone')
import torch
import torch.nn as nn
import torch.nn.functional as F


def fgsm_attack(model, x, y, eps=0.1):
    x = x.clone().detach().requires_grad_(True)
    loss = F.cross_entropy(model(x), y)
    grad = torch.autograd.grad(loss, x)[0]
    x_adv = x + eps * grad.sign()
    return x_adv.clamp(0, 1)


model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))
x = torch.rand(4, 1, 28, 28)
y = torch.randint(0, 10, (4,))
x_adv = fgsm_attack(model, x, y)
F.cross_entropy(model(x_adv), y).backward()
adv_grad = x_adv.grad.clone()
