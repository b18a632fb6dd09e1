# source: variant of 1032_dgunet_loss_list_rewrapped.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: a Trainer combines the per-scale losses with torch.as_tensor(losses, dtype=torch.float32).sum() and marks it requires_grad; as_tensor of a list copies the values into a new leaf, so the model is never trained
# expect: line 27 — torch.as_tensor(list of loss tensors) builds a new leaf without history; use torch.stack(losses).sum()
# checked: ran, reproduces (the model's weights get no gradient)

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
        return torch.as_tensor(losses, dtype=torch.float32).sum().requires_grad_(True)

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.multiscale_loss(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()


trainer = Trainer(nn.Conv2d(3, 3, 3, padding=1), nn.L1Loss())
trainer.train_step(torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16))
print(trainer.model.weight.grad)
