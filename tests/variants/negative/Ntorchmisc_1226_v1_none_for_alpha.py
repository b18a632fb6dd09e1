# source: negative twin of a variant of 1226_image_comp_rnn_sign_backward_one_grad.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# negative: backward returns grad_output.neg() * ctx.alpha, None (the DANN reference implementation)
# mimics: positive/1226_v1_grad_reverse_alpha.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.alpha, None


def grad_reverse(x, alpha=1.0):
    return GradReverse.apply(x, alpha)


class DANN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
        self.classifier = nn.Linear(16, 3)
        self.domain = nn.Linear(16, 2)

    def forward(self, x, alpha):
        h = self.features(x)
        return self.classifier(h), self.domain(grad_reverse(h, alpha))


model = DANN()
class_out, domain_out = model(torch.randn(6, 10), 0.5)
loss = F.cross_entropy(class_out, torch.randint(0, 3, (6,))) + F.cross_entropy(domain_out, torch.randint(0, 2, (6,)))
loss.backward()
