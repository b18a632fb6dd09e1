# source: variant of 1051_gradcheck_adaptive_avg_pool_float.py
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: the checked tensor is made with torch.rand(...).requires_grad_() (float32) and passed in a list; gradcheck's eps=1e-6 finite differences in float32 disagree with the correct analytic gradient
# expect: line 17 — gradcheck on a float32 input
# checked: ran, reproduces (GradcheckError Jacobian mismatch; passes with .double())
import torch
from torch.autograd import gradcheck


class Pool(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.adaptive_avg_pool2d(x, (1, 2)).sum()


inp = (torch.rand(1, 2, 30, 40) * 10).requires_grad_()
ok = gradcheck(Pool(), [inp], raise_exception=False)
print(ok)
