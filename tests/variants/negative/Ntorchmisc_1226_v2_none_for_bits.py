# source: negative twin of a variant of 1226_image_comp_rnn_sign_backward_one_grad.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# negative: backward returns grad_output, None
# mimics: positive/1226_v2_round_ste_bits_alias.py
# expect: no finding
# checked: ran, no error

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
        return grad_output, None


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
