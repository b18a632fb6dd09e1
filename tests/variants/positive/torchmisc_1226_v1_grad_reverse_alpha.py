# source: variant of 1226_image_comp_rnn_sign_backward_one_grad.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# pitfall: a DANN gradient-reversal layer takes (x, alpha) in forward but its backward returns only the reversed gradient; backward must return one value per forward input (None for alpha), so the domain loss's backward fails
# expect: line 22 — backward returns one gradient for a forward with two inputs; return grad_output.neg() * ctx.alpha, None
# checked: ran, reproduces (RuntimeError: function GradReverseBackward returned an incorrect number of gradients (expected 2, got 1))

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
        return grad_output.neg() * ctx.alpha


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
