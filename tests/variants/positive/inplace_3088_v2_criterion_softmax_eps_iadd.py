# source: variant of 3088_resample_loss_logits_iadd_after_sigmoid.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: a criterion module adds an epsilon in place to the prediction it receives; the caller's model ends in nn.Softmax, whose output SoftmaxBackward saved
# expect: line 18 — pred += self.eps on the caller's softmax output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [4, 5]], which is output 0 of Softmax, is at version 1; expected versio)
import torch
import torch.nn as nn


class NLLWithEps(nn.Module):
    def __init__(self, eps=1e-8):
        super().__init__()
        self.eps = eps

    def forward(self, pred, target):
        pred += self.eps
        return -pred.log().gather(1, target[:, None]).mean()


model = nn.Sequential(nn.Linear(8, 5), nn.Softmax(dim=1))
criterion = NLLWithEps()
out = model(torch.randn(4, 8))
loss = criterion(out, torch.randint(0, 5, (4,)))
loss.backward()
