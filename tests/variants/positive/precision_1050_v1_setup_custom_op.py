# source: variant of 1050_dcnv2_gradcheck_float_inputs.py
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: the custom op's test builds its float32 inputs in setUp and gradchecks a wrapper with loosened eps/atol; the reported mismatch is single-precision rounding, not the backward
# expect: line 41 — gradcheck on float32 inputs kept on self (eps=1e-4)
# checked: ran, reproduces (GradcheckError Jacobian mismatch in float32; passes with .double() inputs)
import unittest

import torch
from torch.autograd import gradcheck


class Modulate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, offset, mask):
        ctx.save_for_backward(x, offset, mask)
        return (x + offset).sin() * mask

    @staticmethod
    def backward(ctx, g):
        x, offset, mask = ctx.saved_tensors
        gx = g * (x + offset).cos() * mask
        return gx, gx, g * (x + offset).sin()


def modulate(x, offset, mask):
    return Modulate.apply(x, offset, mask)


class TestModulate(unittest.TestCase):
    def setUp(self):
        N, C, H, W = 2, 2, 4, 4
        self.input = torch.rand(N, C, H, W) * 10
        self.input.requires_grad = True
        self.offset = (torch.randn(N, C, H, W) * 2).requires_grad_()
        self.mask = torch.sigmoid(torch.rand(N, C, H, W)).detach().requires_grad_()

    def test_gradient(self):
        inputs = (self.input, self.offset, self.mask)
        self.assertTrue(gradcheck(modulate, inputs, eps=1e-4, atol=1e-5, rtol=1e-3))


if __name__ == "__main__":
    unittest.main()
