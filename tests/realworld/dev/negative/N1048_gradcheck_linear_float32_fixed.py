# source: https://github.com/pytorch/pytorch/issues/5351
# framework: torch
# family: E
# kind: gradcheck-float32
# negative: the answer's fix: the module and the input are converted with .double() before gradcheck
# mimics: positive/1048_gradcheck_linear_float32.py
# expect: no finding
# checked: ran, no error

import torch.utils.data
import torch.autograd
import torch.nn as nn
from torch.autograd import Variable
from torch.autograd import gradcheck

torch.manual_seed(123)
input = Variable(torch.rand(1, 2).double(), requires_grad=True)
test = gradcheck(nn.Linear(2, 1).double(), (input,), eps=1e-6, atol=1e-3)
print(test)
