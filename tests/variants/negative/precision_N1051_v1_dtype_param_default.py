# source: negative twin of a variant of 1051_gradcheck_adaptive_avg_pool_float.py
# framework: torch
# family: E
# kind: gradcheck-float32
# negative: the dtype parameter defaults to torch.double
# mimics: positive/1051_v1_dtype_param_default.py
# expect: no finding
# checked: ran, gradcheck passes
import torch
import torch.nn.functional as F


def pooled_sum(x, output_size=(1, 2)):
    return F.adaptive_avg_pool2d(x, output_size).sum()


def test_adaptive_avg_pool_grad(dtype=torch.double):
    x = torch.randn(1, 2, 30, 40, dtype=dtype, requires_grad=True) * 10
    assert torch.autograd.gradcheck(pooled_sum, (x,))


test_adaptive_avg_pool_grad()
