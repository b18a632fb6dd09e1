# source: https://github.com/summerlvsong/Aggregation-Cross-Entropy/issues/2
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: the aggregation cross-entropy takes torch.log of the per-class softmax scores accumulated over time steps; a class absent from the image has an accumulated score of 0 and the loss becomes nan
# expect: line 35 — torch.log(input) of probabilities that can be exactly 0 gives -inf (0 * -inf = nan in the loss, NaN gradients)
# checked: ran, reproduces (loss is nan)

import torch
import torch.nn as nn


class ACE(nn.Module):

    def __init__(self, dictionary):
        super(ACE, self).__init__()
        self.softmax = None
        self.label = None
        self.dict = dictionary

    def forward(self, input, label):

        self.bs, self.h, self.w, _ = input.size()
        T_ = self.h * self.w

        input = input.view(self.bs, T_, -1)

        self.label = label
        self.label[:, 0] = T_ - self.label[:, 0]

        # ACE Implementation (four fundamental formulas)
        input = torch.sum(input, 1)
        input = input / T_
        label = label / T_
        loss = (-torch.sum(torch.log(input) * label)) / self.bs

        return loss


logits = torch.full((1, 2, 2, 4), -200.0)
logits[..., 1] = 200.0
logits.requires_grad_(True)
probs = torch.softmax(logits, dim=-1)
label = torch.tensor([[0.0, 4.0, 0.0, 0.0]])
loss = ACE(dictionary=None)(probs, label)
print(loss)
