# source: variant of 1056_advertorch_fgsm_adv_grad_nonleaf.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: attack object holding the model on self; perturb() returns (x + eps*sign).clamp(...) (a non-leaf), and the caller reads .grad of that output after backward
# expect: line 34 — .grad of the non-leaf perturbed batch is None
# checked: ran, reproduces (AttributeError: 'NoneType' object has no attribute 'norm')
import torch
import torch.nn as nn


class FGSM:
    def __init__(self, model, eps=8 / 255):
        self.model = model
        self.eps = eps
        self.loss_fn = nn.CrossEntropyLoss()

    def perturb(self, x, y):
        x = x.detach().requires_grad_()
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        return (x + self.eps * x.grad.sign()).clamp(0.0, 1.0)


class AdvTrainer:
    def __init__(self, model):
        self.model = model
        self.attack = FGSM(model)
        self.criterion = nn.CrossEntropyLoss()

    def grad_norm_on_adv(self, x, y):
        adv = self.attack.perturb(x, y)
        self.criterion(self.model(adv), y).backward()
        return adv.grad.norm()


tr = AdvTrainer(nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 10)))
tr.grad_norm_on_adv(torch.rand(2, 3, 8, 8), torch.randint(0, 10, (2,)))
