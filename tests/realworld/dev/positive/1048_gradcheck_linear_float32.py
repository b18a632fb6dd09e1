# source: https://github.com/pytorch/pytorch/issues/5351
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: gradcheck of nn.Linear is run on a float32 input (and float32 weights) with eps=1e-6, so the finite differences are dominated by rounding and the "wrong automatic gradient" is a numerical artefact
# expect: line 17 — gradcheck in single precision: the numerical Jacobian with eps=1e-6 is rounding noise; use .double() for the module and the input
# checked: ran, reproduces (gradcheck fails in float32, passes in float64)

import torch.utils.data
import torch.autograd
import torch.nn as nn
from torch.autograd import Variable
from torch.autograd import gradcheck

torch.manual_seed(123)
input = Variable(torch.rand(1, 2), requires_grad=True)
test = gradcheck(nn.Linear(2, 1), (input,), eps=1e-6, atol=1e-3)
print(test)
