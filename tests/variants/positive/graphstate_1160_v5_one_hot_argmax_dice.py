# source: variant of 1160_hairmatte_image_gradient_loss_argmax.py
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# pitfall: a multi-class Dice loss one-hot encodes logits.argmax(1) before computing the overlap, so the loss has no gradient path to the network
# expect: line 20 — F.one_hot(logits.argmax(dim=1), ...) makes the prediction a constant
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiClassDice(nn.Module):
    def __init__(self, num_classes, smooth=1.0):
        super().__init__()
        self.num_classes = num_classes
        self.smooth = smooth

    def forward(self, logits, target):
        pred = F.one_hot(logits.argmax(dim=1), self.num_classes).permute(0, 3, 1, 2).float()
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
