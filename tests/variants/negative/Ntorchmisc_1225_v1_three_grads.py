# source: negative twin of a variant of 1225_addernet_backward_returns_nothing.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# negative: backward returns grad_input, grad_weight, grad_bias (the PyTorch extending tutorial)
# mimics: positive/1225_v1_needs_input_grad_missing_weight.py
# expect: no finding
# checked: ran, no error; gradcheck passes

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
        return grad_input, grad_weight, grad_bias


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, x):
        return LinearFunction.apply(x, self.weight, self.bias)


layer = MyLinear(6, 3)
layer(torch.randn(4, 6, requires_grad=True)).sum().backward()
