# source: variant of 1051_gradcheck_adaptive_avg_pool_float.py
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: a pooling test is parametrised by dtype with default torch.float; the checked input is torch.randn(..., dtype=dtype), i.e. float32, and gradcheck reports a Jacobian mismatch on a correct op
# expect: line 18 — gradcheck on an input created with dtype=torch.float (float32)
# checked: ran, reproduces (GradcheckError Jacobian mismatch with the default dtype; passes with dtype=torch.double)
import torch
import torch.nn.functional as F


def pooled_sum(x, output_size=(1, 2)):
    return F.adaptive_avg_pool2d(x, output_size).sum()


def test_adaptive_avg_pool_grad(dtype=torch.float):
    x = torch.randn(1, 2, 30, 40, dtype=dtype, requires_grad=True) * 10
    assert torch.autograd.gradcheck(pooled_sum, (x,))


test_adaptive_avg_pool_grad()
