# source: negative twin of a variant of 1225_addernet_backward_returns_nothing.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# negative: backward ends with return grad_a, grad_b
# mimics: positive/1225_v2_backward_no_return_setup_context.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class L1Distance(torch.autograd.Function):
    @staticmethod
    def forward(a, b):
        return -(a.unsqueeze(1) - b.unsqueeze(0)).abs().sum(-1)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b = inputs
        ctx.save_for_backward(a, b)

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        diff = a.unsqueeze(1) - b.unsqueeze(0)
        grad_a = -(diff.sign() * grad_output.unsqueeze(-1)).sum(1)
        grad_b = (diff.clamp(-1, 1) * grad_output.unsqueeze(-1)).sum(0)
        return grad_a, grad_b


class AdderHead(nn.Module):
    def __init__(self, d=8, n_classes=4):
        super().__init__()
        self.prototypes = nn.Parameter(torch.randn(n_classes, d))

    def forward(self, x):
        return L1Distance.apply(x, self.prototypes)


head = AdderHead()
head(torch.randn(5, 8)).logsumexp(-1).mean().backward()
