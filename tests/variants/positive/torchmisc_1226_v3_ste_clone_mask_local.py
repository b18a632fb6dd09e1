# source: variant of 1226_image_comp_rnn_sign_backward_one_grad.py
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# pitfall: a binary-net sign function takes (input, training) and its backward uses the usual straight-through recipe (clone grad_output, zero it where |input| > 1) but returns only that one tensor; the training flag is a forward input too, so backward must return two values
# expect: line 27 — backward returns one gradient (grad_input) for a forward with two inputs; return grad_input, None
# checked: ran, reproduces (RuntimeError: function BinarizeBackward returned an incorrect number of gradients (expected 2, got 1))

import torch
import torch.nn as nn
import torch.nn.functional as F


class Binarize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, training):
        ctx.save_for_backward(input)
        if training:
            return torch.where(torch.rand_like(input) < (input + 1) / 2, 1.0, -1.0)
        return input.sign()

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input.abs() > 1] = 0
        return grad_input


class BinaryLinear(nn.Linear):
    def forward(self, x):
        w_b = Binarize.apply(self.weight, self.training)
        return F.linear(x, w_b, self.bias)


net = nn.Sequential(BinaryLinear(8, 16), nn.BatchNorm1d(16), nn.Hardtanh(), BinaryLinear(16, 2))
F.cross_entropy(net(torch.randn(4, 8)), torch.randint(0, 2, (4,))).backward()
