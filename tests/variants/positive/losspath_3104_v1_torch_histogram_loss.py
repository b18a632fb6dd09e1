# source: variant of 3104_lyt_histc_histogram_loss.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: the histogram loss uses torch.histogram(y_pred.flatten(), bins=..., range=...) (the newer API) on the model output; the bin counts have no derivative (autograd raises at backward)
# expect: line 15 — torch.histogram(y_pred...) hard-bins the model output inside the loss
# checked: ran, reproduces (RuntimeError: derivative for aten::histogram is not implemented)

import torch
import torch.nn as nn


def histogram_loss(y_true, y_pred, bins=64):
    h_true, _ = torch.histogram(y_true.flatten(), bins=bins, range=(0.0, 1.0))
    h_pred, _ = torch.histogram(y_pred.flatten(), bins=bins, range=(0.0, 1.0))
    h_true = h_true / h_true.sum()
    h_pred = h_pred / h_pred.sum()
    return (h_true - h_pred).abs().mean()


model = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Sigmoid())
optimizer = torch.optim.Adam(model.parameters())
x, y = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
loss = histogram_loss(y, model(x))
optimizer.zero_grad()
loss.backward()
optimizer.step()
