# source: variant of 1225_addernet_backward_returns_nothing.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# pitfall: a custom linear Function with forward(ctx, input, weight, bias) computes the gradients guarded by ctx.needs_input_grad but returns only grad_input; backward must return three values, so loss.backward() fails
# expect: line 32 — backward returns one gradient for a forward with three inputs; return grad_input, grad_weight, grad_bias
# checked: ran, reproduces (RuntimeError: function LinearFunctionBackward returned an incorrect number of gradients (expected 3, got 1))

import torch
import torch.nn as nn


class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, x):
        return LinearFunction.apply(x, self.weight, self.bias)


layer = MyLinear(6, 3)
layer(torch.randn(4, 6, requires_grad=True)).sum().backward()
