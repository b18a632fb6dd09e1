# source: https://github.com/chainer/chainer/issues/7973
# family: E
# pitfall: unit test asserts with torch.equal that the input gradient of a training-mode BatchNorm sums to exactly zero over the batch
# expect: line 16 — the sum is zero only mathematically; in float32 it is ~1e-7, so the exact comparison fails (use torch.testing.assert_close / atol)

import torch
import torch.nn as nn


def test_batchnorm_input_grad_sums_to_zero():
    torch.manual_seed(0)
    bn = nn.BatchNorm1d(8)
    x = torch.randn(32, 8, requires_grad=True)
    upstream = torch.randn(32, 8)
    (bn(x) * upstream).sum().backward()
    assert torch.equal(x.grad.sum(0), torch.zeros(8))


test_batchnorm_input_grad_sums_to_zero()
