# source: variant of 1225_addernet_backward_returns_nothing.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# pitfall: a custom Function written in the torch 2 style (forward without ctx, setup_context saving the inputs) computes grad_a and grad_b in backward but never returns them; backward returns None for a forward with two inputs, so loss.backward() fails
# expect: line 24 — backward has no return statement; return grad_a, grad_b
# checked: ran, reproduces (RuntimeError: function L1DistanceBackward returned an incorrect number of gradients (expected 2, got 1))

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


class AdderHead(nn.Module):
    def __init__(self, d=8, n_classes=4):
        super().__init__()
        self.prototypes = nn.Parameter(torch.randn(n_classes, d))

    def forward(self, x):
        return L1Distance.apply(x, self.prototypes)


head = AdderHead()
head(torch.randn(5, 8)).logsumexp(-1).mean().backward()
