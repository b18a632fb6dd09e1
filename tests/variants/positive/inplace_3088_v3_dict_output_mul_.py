# source: variant of 3088_resample_loss_logits_iadd_after_sigmoid.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the training step stores the model output in a dict and a loss helper edits out['probs'] in place; the model ends in a sigmoid
# expect: line 23 — probs.mul_(weight) on the sigmoid output reached through a dict
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [4, 3]], which is output 0 of Sigmoid, is at version 1; expected versio)
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        return {"probs": torch.sigmoid(self.fc(x))}


def weighted_loss(out, target, weight):
    probs = out["probs"]
    probs.mul_(weight)
    return ((probs - target) ** 2).mean()


net = Net()
out = net(torch.randn(4, 8))
loss = weighted_loss(out, torch.rand(4, 3), torch.tensor([1.0, 2.0, 0.5]))
loss.backward()
