# source: variant of 1226_image_comp_rnn_sign_backward_one_grad.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# pitfall: a straight-through quantiser takes (input, num_bits) and is used through the alias `quantize = RoundSTE.apply`; its backward returns only grad_output, but a forward with two inputs needs two return values (None for the bit width)
# expect: line 22 — backward returns one gradient for a forward with two inputs; return grad_output, None
# checked: ran, reproduces (RuntimeError: function RoundSTEBackward returned an incorrect number of gradients (expected 2, got 1))

import torch
import torch.nn as nn
from torch.autograd import Function


class RoundSTE(Function):
    @staticmethod
    def forward(ctx, input, num_bits):
        scale = 2 ** num_bits - 1
        return torch.round(input.clamp(0, 1) * scale) / scale

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


quantize = RoundSTE.apply


class QuantLinear(nn.Linear):
    def __init__(self, *args, bits=4, **kwargs):
        super().__init__(*args, **kwargs)
        self.bits = bits

    def forward(self, x):
        w_q = quantize(torch.sigmoid(self.weight), self.bits) * 2 - 1
        return nn.functional.linear(x, w_q, self.bias)


layer = QuantLinear(8, 4, bits=3)
layer(torch.randn(5, 8)).pow(2).mean().backward()
