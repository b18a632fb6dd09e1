# source: https://github.com/pytorch/pytorch/issues/114505
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: fix from the thread: Softplus gets a clone of the column, so the later index assignment into b does not touch a saved tensor.
# expect: no finding
# checked: ran, clean (prints the 3x2x3x2 jacobian)
import torch


def func(a):
    b = torch.zeros_like(a)
    b[:, 0] = a[:, 0]
    b[:, 1] = torch.nn.Softplus()(b[:, 0].clone())
    return b

torch.autograd.set_detect_anomaly(True)
print(torch.autograd.functional.jacobian(func, torch.randn(3, 2)))
