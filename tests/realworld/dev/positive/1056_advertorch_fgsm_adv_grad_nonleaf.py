# source: https://github.com/BorealisAI/advertorch/issues/49
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: the adversarial batch returned by the FGSM attack is the result of arithmetic and clamp (a non-leaf), so after backward its .grad is None and .grad.clone() fails
# expect: line 39 — .grad of the non-leaf FGSM output is never populated (call retain_grad() or detach().requires_grad_() first)
# checked: ran, reproduces (AttributeError: 'NoneType' object has no attribute 'clone')

import torch
import torch.nn as nn


class GradientSignAttack(object):
    def __init__(self, predict, loss_fn=None, eps=0.3, clip_min=0., clip_max=1.):
        self.predict = predict
        self.loss_fn = loss_fn or nn.CrossEntropyLoss(reduction="sum")
        self.eps = eps
        self.clip_min = clip_min
        self.clip_max = clip_max

    def perturb(self, x, y):
        xadv = x.requires_grad_()
        outputs = self.predict(xadv)
        loss = self.loss_fn(outputs, y)
        grad_sign = torch.autograd.grad(loss, xadv)[0].sign()
        xadv = xadv + self.eps * grad_sign
        xadv = torch.clamp(xadv, self.clip_min, self.clip_max)
        return xadv


model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))
adversary = GradientSignAttack(model, eps=0.3)
x = torch.rand(4, 1, 28, 28)
y = torch.randint(0, 10, (4,))

fgsm_tensor = adversary.perturb(x, y)
loss = nn.CrossEntropyLoss()(model(fgsm_tensor), y)
loss.backward()
fgsm_grad = fgsm_tensor.grad.clone()
