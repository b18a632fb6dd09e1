# source: https://github.com/fastai/fastbook/pull/471
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: the MNIST-basics chapter nudges one weight with weights[0] *= 1.0001 to show the effect on the loss; weights is a leaf created with requires_grad, so the in-place multiply of its view fails
# expect: line 26 — in-place *= on a view of a leaf tensor that requires grad raises RuntimeError
# checked: ran, reproduces

import torch


def init_params(size, std=1.0):
    return (torch.randn(size) * std).requires_grad_()


weights = init_params((28 * 28, 1))
bias = init_params(1)
train_x = torch.rand(6, 28 * 28)


def linear1(xb):
    return xb @ weights + bias


preds = linear1(train_x)
weights[0] *= 1.0001
preds2 = linear1(train_x)
