# source: variant of 3104_lyt_histc_histogram_loss.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: the histogram loss is written with the tensor method y_pred.histc(...) inside a trainer's loss helper
# expect: line 20 — y_pred.histc(...) is a counting op with no gradient
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, bins=32):
        self.model = model
        self.bins = bins
        self.opt = torch.optim.Adam(model.parameters())

    def hist_loss(self, y_true, y_pred):
        h_true = y_true.histc(bins=self.bins, min=0, max=1)
        h_pred = y_pred.histc(bins=self.bins, min=0, max=1)
        return (h_true / h_true.sum() - h_pred / h_pred.sum()).abs().mean()

    def step(self, x, y):
        loss = self.hist_loss(y, self.model(x))
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


Trainer(nn.Sequential(nn.Conv2d(3, 3, 1), nn.Sigmoid())).step(torch.rand(1, 3, 8, 8), torch.rand(1, 3, 8, 8))
