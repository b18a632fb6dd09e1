# source: https://pytorch.org/docs/stable/testing.html
# family: E
# negative: test compares a mathematically-zero gradient with a tolerance (assert_close / isclose), and checks frozen parameters with `grad is None`
# mimics: exact == 0 / torch.equal checks on gradients
# expect: no finding

import torch
import torch.nn as nn


def test_batchnorm_and_frozen_layer():
    bn = nn.BatchNorm1d(8)
    frozen = nn.Linear(8, 8)
    frozen.requires_grad_(False)
    x = torch.randn(32, 8, requires_grad=True)
    (frozen(bn(x)) * torch.randn(32, 8)).sum().backward()
    torch.testing.assert_close(x.grad.sum(0), torch.zeros(8), atol=1e-5, rtol=0)
    assert torch.isclose(x.grad.mean(), torch.tensor(0.0), atol=1e-6)
    assert frozen.weight.grad is None


test_batchnorm_and_frozen_layer()
