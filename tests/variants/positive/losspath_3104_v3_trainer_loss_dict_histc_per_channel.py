# source: variant of 3104_lyt_histc_histogram_loss.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: a low-light enhancement Trainer adds a per-channel histogram term (torch.histc in a loop over RGB) to its loss dict; histc has no derivative, so that term trains nothing while the L1 term keeps training
# expect: line 23 — torch.histc(out[:, c], ...) bins the model output; the histogram term is a constant
# checked: ran, reproduces (losses["hist"].requires_grad is False)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, bins=64):
        self.model = model
        self.bins = bins
        self.optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)

    def hist_term(self, out, gt):
        total = 0.0
        for c in range(out.shape[1]):
            hp = torch.histc(out[:, c], bins=self.bins, min=0.0, max=1.0)
            hg = torch.histc(gt[:, c], bins=self.bins, min=0.0, max=1.0)
            total = total + (hp / hp.sum() - hg / hg.sum()).abs().mean()
        return total / out.shape[1]

    def step(self, low, gt):
        out = self.model(low)
        losses = {"l1": F.l1_loss(out, gt), "hist": 0.1 * self.hist_term(out, gt)}
        loss = sum(losses.values())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return losses


trainer = Trainer(nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Sigmoid()))
losses = trainer.step(torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16))
print(losses["hist"].requires_grad)
