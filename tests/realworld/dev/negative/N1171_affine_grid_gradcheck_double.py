# source: https://github.com/pytorch/pytorch/issues/4329
# framework: torch
# family: E
# kind: gradcheck-float32
# negative: the standard resolution for float32 gradcheck failures (cf. pytorch#5351: 'If you add .double() calls it will pass'): run gradcheck on double-precision inputs
# mimics: positive/1171_affine_grid_gradcheck_float32.py
# expect: no finding
# checked: ran, no error
import torch
from torch.autograd import Variable
from torch.autograd.gradcheck import gradcheck
import numpy as np
from torch.nn.functional import affine_grid

grid_sz = 2    # set small so output from gradcheck is also small. 
theta = torch.DoubleTensor(np.random.rand(1,2,3))
theta = Variable(theta, requires_grad=True)
def func(v):
    return affine_grid(v, torch.Size([1, 1, grid_sz, grid_sz]))
gradcheck(func, (theta,))
