# source: https://github.com/1zb/pytorch-image-comp-rnn/issues/4
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# pitfall: the straight-through Sign function takes two forward inputs (input, is_training) but its backward returns only grad_output, so backpropagating through the binarizer fails with "function SignBackward returned an incorrect number of gradients (expected 2, got 1)"
# expect: line 37 — backward must return one value per forward input; the maintainer's fix (commit 980f2ff) is return grad_output, None
# checked: ran, reproduces (RuntimeError: function SignBackward returned an incorrect number of gradients (expected 2, got 1)); functions/sign.py at ff3caae verbatim and modules/sign.py's wrapper, used between a small encoder and decoder

import torch
from torch.autograd import Function
import torch.nn as nn


class Sign(Function):
    """
    Variable Rate Image Compression with Recurrent Neural Networks
    https://arxiv.org/abs/1511.06085
    """

    def __init__(self):
        super(Sign, self).__init__()

    @staticmethod
    def forward(ctx, input, is_training=True):
        # Apply quantization noise while only training
        if is_training:
            prob = input.new(input.size()).uniform_()
            x = input.clone()
            x[(1 - input) / 2 <= prob] = 1
            x[(1 - input) / 2 > prob] = -1
            return x
        else:
            return input.sign()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class SignModule(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return Sign.apply(x, self.training)


encoder, binarizer, decoder = nn.Conv2d(3, 8, 3, padding=1), SignModule(), nn.Conv2d(8, 3, 3, padding=1)
image = torch.rand(2, 3, 8, 8)
codes = binarizer(torch.tanh(encoder(image)))
loss = (decoder(codes) - image).abs().mean()
loss.backward()
