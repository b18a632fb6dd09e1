# source: https://discuss.pytorch.org/t/gradients-are-different-on-single-and-double-precision/154957
# framework: torch
# family: E
# kind: fd-float32
# pitfall: a hand-written gradient check perturbs single entries by eps=1e-3 and takes a one-sided difference of float32 losses, so the numerical gradient does not match autograd in single precision (it does in double)
# expect: line 34 — one-sided finite difference of float32 losses: rounding error (~1e-7 relative) divided by eps swamps the estimate; use float64 and a central difference
# checked: ran, reproduces (float32 ratios deviate from 1, float64 ratios match)

import numpy as np
import torch
import torch.nn as nn


def grad_check(model, data, target, loss_fn, eps=1e-3, control_num=3, x_list=None, y_list=None):

    num_grads = []
    orig_grads = []
    output_original = model(data)
    loss_original = loss_fn(torch.squeeze(output_original), torch.squeeze(target))
    loss_original.backward()
    print('Loss original: ', loss_original)
    grad_original = torch.squeeze(data.grad)
    (shape_x, shape_y) = torch.squeeze(data).shape[0], torch.squeeze(data).shape[1]
    if x_list is None and y_list is None:
        x_list = np.random.randint(0, shape_x, size=control_num)
        y_list = np.random.randint(0, shape_y, size=control_num)
    with torch.no_grad():
        for i in range(control_num):
            data_copy = data.clone()
            data_copy[x_list[i], y_list[i]] = data_copy[x_list[i], y_list[i]] + eps
            output_ptb = model(data_copy)
            loss_ptb = loss_fn(torch.squeeze(output_ptb), torch.squeeze(target))
            print('Loss numeric: ', loss_ptb)
            grad_num = (loss_ptb - loss_original) / eps
            num_grads.append(grad_num.item())
            orig_grads.append(grad_original[x_list[i], y_list[i]].item())
    print('Numerical grad: ', num_grads)
    print('Original grad: ', orig_grads)
    print('Ratio: ', np.array(num_grads) / np.array(orig_grads))
    return x_list, y_list, np.array(num_grads) / np.array(orig_grads)


class TestModel(nn.Module):
    def __init__(self):
        super(TestModel, self).__init__()

    def forward(self, x):
        out = (x + 1) / 2
        return out


loss_function = nn.MSELoss()
data = torch.rand(64, 64, requires_grad=True)
target = torch.rand(64, 64)
x_list, y_list, ratio = grad_check(TestModel(), data, target, loss_function)
