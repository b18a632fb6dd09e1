# source: negative twin of a variant of 1226_image_comp_rnn_sign_backward_one_grad.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# negative: backward returns F.hardtanh(grad_output), None, None
# mimics: positive/1226_v4_ste_hardtanh_call.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F


class FakeQuant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point):
        q = torch.clamp(torch.round(x / scale) + zero_point, 0, 255)
        return (q - zero_point) * scale

    @staticmethod
    def backward(ctx, grad_output):
        return F.hardtanh(grad_output), None, None


class QuantAct(nn.Module):
    def __init__(self, scale=0.05, zero_point=128):
        super().__init__()
        self.scale, self.zero_point = scale, zero_point

    def forward(self, x):
        return FakeQuant.apply(x, self.scale, self.zero_point)


net = nn.Sequential(nn.Linear(6, 6), QuantAct(), nn.Linear(6, 1))
net(torch.randn(3, 6)).pow(2).mean().backward()
