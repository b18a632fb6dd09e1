# source: https://github.com/TinyZeaMays/CircleLoss/issues/31
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: the adaptive weights a_p and a_n of Circle loss are detached on purpose (the paper treats them as constants); the logits still depend on sp and sn, so the loss is differentiable
# mimics: .detach() inside a loss function
# expect: no finding
# checked: ran, no error

import torch
from torch import nn, Tensor


class CircleLoss(nn.Module):
    def __init__(self, m: float, gamma: float) -> None:
        super(CircleLoss, self).__init__()
        self.m = m
        self.gamma = gamma
        self.soft_plus = nn.Softplus()

    def forward(self, sp: Tensor, sn: Tensor) -> Tensor:
        ap = torch.clamp_min(- sp.detach() + 1 + self.m, min=0.)
        an = torch.clamp_min(sn.detach() + self.m, min=0.)

        delta_p = 1 - self.m
        delta_n = self.m

        logit_p = - ap * (sp - delta_p) * self.gamma
        logit_n = an * (sn - delta_n) * self.gamma

        loss = self.soft_plus(torch.logsumexp(logit_n, dim=0) + torch.logsumexp(logit_p, dim=0))

        return loss


feat = nn.functional.normalize(torch.rand(16, 64, requires_grad=True))
sp = (feat[:4] * feat[4:8]).sum(1)
sn = (feat[:4] * feat[8:12]).sum(1)
criterion = CircleLoss(m=0.25, gamma=256)
circle_loss = criterion(sp, sn)
circle_loss.backward()
