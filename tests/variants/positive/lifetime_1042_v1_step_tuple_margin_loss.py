# source: variant of 1042_racnn_rank_loss_vector_backward.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: loss, logs = self.step(batch) returns a per-sample hinge ranking loss (clamp(margin - pos + neg, min=0)), which is backpropagated without reduction
# expect: line 30 — backward() on the per-sample ranking loss vector
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)

import torch
import torch.nn as nn


class RankTrainer:
    def __init__(self, margin=0.2):
        self.scorer = nn.Linear(16, 1)
        self.margin = margin
        self.opt = torch.optim.SGD(self.scorer.parameters(), lr=0.01)

    def step(self, batch):
        pos, neg = batch
        s_pos = self.scorer(pos).squeeze(-1)
        s_neg = self.scorer(neg).squeeze(-1)
        loss = torch.clamp(self.margin - s_pos + s_neg, min=0)
        return loss, {"acc": (s_pos > s_neg).float().mean().item()}

    def train(self, loader):
        for batch in loader:
            loss, logs = self.step(batch)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


if __name__ == "__main__":
    RankTrainer().train([(torch.randn(8, 16), torch.randn(8, 16)) for _ in range(2)])
