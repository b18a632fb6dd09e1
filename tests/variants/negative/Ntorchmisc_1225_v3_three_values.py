# source: negative twin of a variant of 1225_addernet_backward_returns_nothing.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# negative: backward returns grad_input, None, None
# mimics: positive/1225_v3_tuple_too_short_three_inputs.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
from torch.autograd import Function


class ClampSTE(Function):
    @staticmethod
    def forward(ctx, input, lower, upper):
        ctx.save_for_backward(input)
        ctx.bounds = (lower, upper)
        return input.clamp(lower, upper).round()

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        lower, upper = ctx.bounds
        grad_input = grad_output.clone()
        grad_input[(input < lower) | (input > upper)] = 0
        return grad_input, None, None


class ActQuant(nn.Module):
    def __init__(self, lower=-1.0, upper=1.0):
        super().__init__()
        self.lower, self.upper = lower, upper

    def forward(self, x):
        return ClampSTE.apply(x, self.lower, self.upper)


net = nn.Sequential(nn.Linear(6, 6), ActQuant(), nn.Linear(6, 1))
net(torch.randn(3, 6)).sum().backward()
