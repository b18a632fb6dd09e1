# source: https://github.com/fastai/fastbook/pull/471
# framework: torch
# family: D
# kind: inplace-on-leaf
# negative: the fix merged into the book: the nudge goes through .data, outside autograd
# mimics: positive/1118_fastbook_weights_index_inplace_scale.py
# expect: no finding
# checked: ran, no error

import torch


def init_params(size, std=1.0):
    return (torch.randn(size) * std).requires_grad_()


weights = init_params((28 * 28, 1))
bias = init_params(1)
train_x = torch.rand(6, 28 * 28)


def linear1(xb):
    return xb @ weights + bias


preds = linear1(train_x)
weights[0].data *= 1.0001
preds2 = linear1(train_x)
