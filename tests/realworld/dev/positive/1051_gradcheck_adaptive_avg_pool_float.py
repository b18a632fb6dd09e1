# source: https://github.com/pytorch/pytorch/issues/44662
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: gradcheck of adaptive_avg_pool2d(...).sum() is run on a float32 tensor literal; the numerical Jacobian (0.4768 vs 0.1667) is float32 rounding of a large sum, reported as a pooling bug
# expect: line 26 — the checked input is float32 (torch.tensor of Python floats); gradcheck needs float64 inputs
# checked: ran, reproduces (fails with float32, passes with dtype=torch.double)

import torch

x = torch.tensor([
    [[[1., 0., -1., 0.],
      [2., 1., 1., -2.],
      [-1., -2., -3., -4.]],
     [[3., 1., 1., 7.],
      [6., 5., 21., 3.],
      [1., 2., 3., 4.]]]
], requires_grad=True)


def f(x):
    output_size = (1, 2)
    return torch.nn.functional.adaptive_avg_pool2d(x, output_size).sum()


ok = torch.autograd.gradcheck(f, x)
print(ok)
