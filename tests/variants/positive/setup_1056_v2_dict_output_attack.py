# source: variant of 1056_advertorch_fgsm_adv_grad_nonleaf.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: the attack object returns a dict; out["adv"] is arithmetic+clamp of the input (non-leaf), so after backward its .grad is None
# expect: line 37 — adv.grad.clone() on the non-leaf adversarial batch
# checked: ran, reproduces (.grad is None: TypeError/AttributeError on NoneType)
import torch
import torch.nn as nn


class PGD:
    def __init__(self, predict, eps=0.3, alpha=0.1, steps=2):
        self.predict = predict
        self.loss_fn = nn.CrossEntropyLoss()
        self.eps, self.alpha, self.steps = eps, alpha, steps

    def perturb(self, x, y):
        xadv = x.clone().detach()
        for _ in range(self.steps):
            xadv.requires_grad_()
            loss = self.loss_fn(self.predict(xadv), y)
            g, = torch.autograd.grad(loss, xadv)
            xadv = xadv.detach() + self.alpha * g.sign()
            xadv = torch.min(torch.max(xadv, x - self.eps), x + self.eps).clamp(0, 1)
        return {"adv": xadv, "clean": x}


model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))
attack = PGD(model)
x = torch.rand(4, 1, 28, 28, requires_grad=True)
y = torch.randint(0, 10, (4,))
out = attack.perturb(x, y)
adv = out["adv"]
loss = nn.CrossEntropyLoss()(model(adv), y)
loss.backward()
adv_grad = adv.grad.clone()
