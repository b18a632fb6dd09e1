# source: variant of 3104_lyt_histc_histogram_loss.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: the histogram is computed by a lambda wrapping torch.histc, used inside the loss helper; histc has no gradient
# expect: line 11 — the lambda's torch.histc bins the model output
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn

hist = lambda t, bins=64: torch.histc(t, bins=bins, min=0.0, max=1.0)


def histogram_loss(y_true, y_pred):
    ht, hp = hist(y_true), hist(y_pred)
    return torch.mean(torch.abs(ht / ht.sum() - hp / hp.sum()))


model = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Sigmoid())
y_true = torch.rand(2, 3, 8, 8)
loss = histogram_loss(y_true, model(torch.rand(2, 3, 8, 8)))
loss.backward()
