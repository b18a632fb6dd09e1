# source: variant of 1160_hairmatte_image_gradient_loss_argmax.py
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# pitfall: trainer computes an IoU-style loss from "_, pred = torch.max(out, 1)"; the predicted labels are integers with no grad_fn
# expect: line 18 — "_, pred = torch.max(out, 1)" keeps only the argmax indices
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn


class SegTrainer:
    def __init__(self, net):
        self.net = net
        self.optimizer = torch.optim.SGD(net.parameters(), lr=0.01)

    def iou_loss(self, out, target):
        _, pred = torch.max(out, 1)
        pred = pred.float()
        inter = (pred * target).sum()
        union = pred.sum() + target.sum() - inter
        return 1 - inter / (union + 1e-6)

    def step(self, image, mask):
        out = self.net(image)
        loss = self.iou_loss(out, mask.float())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1))
image = torch.rand(2, 3, 16, 16)
mask = (torch.rand(2, 16, 16) > 0.5).long()
SegTrainer(net).step(image, mask)
