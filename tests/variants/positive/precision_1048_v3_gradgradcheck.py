# source: variant of 1048_gradcheck_linear_float32.py
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: the second-derivative check (gradgradcheck) of a small MLP runs on float32 parameters and inputs; the numerical Jacobian of the gradient is rounding noise in single precision
# expect: line 17 — gradgradcheck on float32 inputs
# checked: ran, reproduces (GradcheckError Jacobian mismatch in float32; passes with .double())
import torch
import torch.nn as nn
from torch.autograd import gradgradcheck

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 1))
x = torch.randn(4, 3, requires_grad=True)


passed = gradgradcheck(lambda inp: net(inp).sum(), (x,), eps=1e-6, atol=1e-4)
print(passed)
