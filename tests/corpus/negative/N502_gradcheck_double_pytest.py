# source: https://pytorch.org/docs/stable/notes/extending.html#testing-extensions
# family: E
# negative: gradcheck and gradgradcheck of a custom layer run on float64 inputs (the documented requirement)
# mimics: torch.autograd.gradcheck / gradgradcheck in a test
# expect: no finding

import torch
import torch.nn as nn
from torch.autograd import gradcheck, gradgradcheck


class Mish(nn.Module):
    def forward(self, x):
        return x * torch.tanh(nn.functional.softplus(x))


def test_mish_gradients():
    x = torch.randn(3, 7, dtype=torch.double, requires_grad=True)
    assert gradcheck(Mish(), (x,), eps=1e-6, atol=1e-4)
    assert gradgradcheck(Mish(), (x,))


if __name__ == "__main__":
    test_mish_gradients()
