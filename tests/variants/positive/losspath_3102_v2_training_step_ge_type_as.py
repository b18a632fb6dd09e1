# source: variant of 3102_smp_dice_threshold.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: a segmentation module's training_step binarises the prediction with pred.ge(0.5).type_as(pred) before a Dice term it adds to the BCE loss; the comparison has no gradient, so the Dice term is a constant
# expect: line 26 — pred.ge(0.5).type_as(pred) hard-thresholds the prediction that the Dice term is computed from
# checked: ran, reproduces (losses["dice"].requires_grad is False; the model trains only through BCE)

import torch
import torch.nn as nn
import torch.nn.functional as F


class SegModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        pred = torch.sigmoid(logits)
        hard = pred.ge(0.5).type_as(pred)
        dice = 1 - (2 * (hard * y).sum() + 1) / (hard.sum() + y.sum() + 1)
        losses = {"bce": F.binary_cross_entropy_with_logits(logits, y), "dice": dice}
        return sum(losses.values()), losses


model = SegModule()
optimizer = torch.optim.Adam(model.parameters())
batch = (torch.randn(2, 3, 16, 16), (torch.rand(2, 1, 16, 16) > 0.5).float())
loss, losses = model.training_step(batch, 0)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(losses["dice"].requires_grad)
