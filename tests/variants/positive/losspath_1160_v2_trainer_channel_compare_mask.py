# source: variant of 1160_hairmatte_image_gradient_loss_argmax.py
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# pitfall: a Trainer's boundary loss builds the hard foreground mask by comparing the two logit channels (pred[:, 1:] > pred[:, :1]); the comparison has no gradient, so the term added to the loss dict trains nothing
# expect: line 22 — (pred[:, 1:] > pred[:, :1]).float() is a hard mask: the boundary term is a constant
# checked: ran, reproduces (losses["boundary"].requires_grad is False)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.criterion = nn.CrossEntropyLoss()
        self.lap = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]).view(1, 1, 3, 3)

    def boundary_loss(self, pred, target):
        fg = (pred[:, 1:] > pred[:, :1]).float()
        edges_pred = F.conv2d(fg, self.lap, padding=1).abs()
        edges_gt = F.conv2d(target[:, None].float(), self.lap, padding=1).abs()
        return F.l1_loss(edges_pred, edges_gt)

    def train_step(self, image, target):
        pred = self.model(image)
        losses = {"ce": self.criterion(pred, target), "boundary": self.boundary_loss(pred, target)}
        total = sum(losses.values())
        self.optimizer.zero_grad()
        total.backward()
        self.optimizer.step()
        return losses


trainer = Trainer(nn.Conv2d(3, 2, 3, padding=1))
losses = trainer.train_step(torch.rand(2, 3, 16, 16), (torch.rand(2, 16, 16) > 0.5).long())
print(losses["boundary"].requires_grad)
