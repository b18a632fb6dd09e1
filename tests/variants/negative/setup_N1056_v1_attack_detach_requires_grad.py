# source: variant of 1056_advertorch_fgsm_adv_grad_nonleaf.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: none — the caller makes the adversarial batch a fresh leaf with .detach().requires_grad_() before reading its .grad
# checked: ran, correct (x_adv.grad populated)
import torch
import torch.nn as nn
import torch.nn.functional as F


def fgsm(model, x, y, eps):
    x = x.clone().requires_grad_(True)
    loss = F.cross_entropy(model(x), y)
    grad, = torch.autograd.grad(loss, x)
    return (x + eps * grad.sign()).clamp(0, 1)


def adv_grad_norm(model, x, y, eps=0.3):
    x_adv = fgsm(model, x, y, eps).detach().requires_grad_()
    loss = F.cross_entropy(model(x_adv), y)
    loss.backward()
    return x_adv.grad.flatten(1).norm(dim=1)


if __name__ == "__main__":
    model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))
    print(adv_grad_norm(model, torch.rand(4, 1, 28, 28), torch.randint(0, 10, (4,))))
