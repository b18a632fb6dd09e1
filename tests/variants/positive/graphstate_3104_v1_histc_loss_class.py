# source: variant of 3104_lyt_histc_histogram_loss.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: a color-histogram loss module compares torch.histc bin counts of the output and target per channel; histc has no derivative, so the term trains nothing
# expect: line 20 — torch.histc(pred[:, c], ...) bins the model output
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn


class HistogramLoss(nn.Module):
    def __init__(self, bins=64):
        super().__init__()
        self.bins = bins

    def forward(self, pred, target):
        loss = 0.0
        for c in range(pred.shape[1]):
            hp = torch.histc(pred[:, c], bins=self.bins, min=0.0, max=1.0)
            ht = torch.histc(target[:, c], bins=self.bins, min=0.0, max=1.0)
            loss = loss + torch.abs(hp / hp.sum() - ht / ht.sum()).mean()
        return loss


model = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Sigmoid())
criterion = HistogramLoss()
optimizer = torch.optim.Adam(model.parameters())
x, y = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
loss = criterion(model(x), y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
