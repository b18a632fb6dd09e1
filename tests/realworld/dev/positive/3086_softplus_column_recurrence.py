# source: https://github.com/pytorch/pytorch/issues/114505
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: column i of a buffer is written from a function of column i-1 of the same buffer; the index assignment bumps the version of the storage that Softplus saved (its input view b[:, 0]).
# expect: line 14 — `b[:, 1] = torch.nn.Softplus()(b[:, 0])` index assignment into b after Softplus saved the view b[:, 0]
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 of AsStrided, is at version 2; expected version 1 instead)
import torch


def func(a):
    b = torch.zeros_like(a)
    b[:, 0] = a[:, 0]
    b[:, 1] = torch.nn.Softplus()(b[:, 0])
    return b

torch.autograd.set_detect_anomaly(True)
print(torch.autograd.functional.jacobian(func, torch.randn(3, 2)))
