# source: https://github.com/pytorch/pytorch/issues/4329
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: while testing a modified spatial transformer, the user runs gradcheck on affine_grid with a single-precision theta; the finite differences in float32 are too coarse for gradcheck's default tolerances and the (correct) built-in gradient is reported as wrong
# expect: line 19 — gradcheck with float32 inputs (torch.FloatTensor theta): numerical and analytical Jacobians disagree at the default eps/atol; gradcheck needs double-precision inputs
# checked: ran, reproduces (torch 2.13 CPU: GradcheckError, "Jacobian mismatch"); verbatim from the issue (Variable kept)
import torch
from torch.autograd import Variable
from torch.autograd.gradcheck import gradcheck
import numpy as np
from torch.nn.functional import affine_grid

grid_sz = 2    # set small so output from gradcheck is also small. 
theta = torch.FloatTensor(np.random.rand(1,2,3))
theta = Variable(theta, requires_grad=True)
def func(v):
    return affine_grid(v, torch.Size([1, 1, grid_sz, grid_sz]))
gradcheck(func, (theta,))
