# source: variant of 1034_cdpn_argmax_coordinates_loss.py
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a depth Trainer picks the most likely depth bin with torch.topk(logits, 1, dim=1)[1] and looks up the bin centre before the L1 depth loss; the index has no gradient, so the loss has no grad_fn
# expect: line 22 — torch.topk(...)[1] keeps only the bin index: the decoded depth is a constant
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad)

import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthTrainer:
    def __init__(self, n_bins=32):
        self.model = nn.Conv2d(3, n_bins, 3, padding=1)
        self.centers = torch.linspace(0.5, 10.0, n_bins)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)

    def predict_depth(self, img):
        logits = self.model(img)
        bin_idx = torch.topk(logits, 1, dim=1)[1]
        return self.centers[bin_idx.squeeze(1)]

    def step(self, img, depth_gt):
        loss = F.l1_loss(self.predict_depth(img), depth_gt)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


DepthTrainer().step(torch.randn(2, 3, 8, 8), torch.rand(2, 8, 8) * 10)
