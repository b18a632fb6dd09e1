# source: variant of 1160_hairmatte_image_gradient_loss_argmax.py
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# negative: fixed twin (detach the fake for D / detach carried state / torch.stack / softmax probabilities / reduce the loss)
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiClassDice(nn.Module):
    def __init__(self, num_classes, smooth=1.0):
        super().__init__()
        self.num_classes = num_classes
        self.smooth = smooth

    def forward(self, logits, target):
        pred = logits.softmax(dim=1)
        tgt = F.one_hot(target, self.num_classes).permute(0, 3, 1, 2).float()
        inter = (pred * tgt).sum((2, 3))
        dice = (2 * inter + self.smooth) / (pred.sum((2, 3)) + tgt.sum((2, 3)) + self.smooth)
        return 1 - dice.mean()


net = nn.Conv2d(3, 4, 1)
criterion = MultiClassDice(4)
optimizer = torch.optim.Adam(net.parameters())
loss = criterion(net(torch.rand(2, 3, 8, 8)), torch.randint(0, 4, (2, 8, 8)))
optimizer.zero_grad()
loss.backward()
optimizer.step()
