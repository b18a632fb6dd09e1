# source: variant of 1032_dgunet_loss_list_rewrapped.py
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: fixed twin: torch.stack(losses).sum() keeps the graphs
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, criterion, scales=(1.0, 0.5, 0.25)):
        self.model = model
        self.criterion = criterion
        self.scales = scales
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)

    def multiscale_loss(self, pred, target):
        losses = []
        for s in self.scales:
            p = F.interpolate(pred, scale_factor=s, mode="bilinear", align_corners=False) if s != 1.0 else pred
            t = F.interpolate(target, scale_factor=s, mode="bilinear", align_corners=False) if s != 1.0 else target
            losses.append(self.criterion(p, t))
        return torch.stack(losses).sum()

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.multiscale_loss(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()


trainer = Trainer(nn.Conv2d(3, 3, 3, padding=1), nn.L1Loss())
trainer.train_step(torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16))
print(trainer.model.weight.grad)
