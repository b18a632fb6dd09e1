# source: variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# pitfall: a Trainer class keeps the model, optimizer and accumulation count on self; train_epoch clears the gradients at the top of every batch but steps only every grad_accum batches, so each step sees only the last batch's gradient
# expect: line 29 — self.optimizer.zero_grad() on every batch of an accumulate-then-step loop discards the accumulated gradients
# checked: ran, reproduces (a step pre-hook counting backward calls since the last clear: [1, 1], each optimizer.step() sees one micro-batch instead of the accumulated ones)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, train_loader, lr=1e-3, grad_accum=4):
        self.model = model
        self.train_loader = train_loader
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda s: 1.0)
        self.grad_accum = grad_accum

    def compute_loss(self, batch):
        x, y = batch
        return F.cross_entropy(self.model(x), y)

    def train_epoch(self):
        self.model.train()
        for step, batch in enumerate(self.train_loader):
            self.optimizer.zero_grad()
            loss = self.compute_loss(batch) / self.grad_accum
            loss.backward()
            if (step + 1) % self.grad_accum == 0:
                self.optimizer.step()
                self.scheduler.step()


loader = [(torch.randn(4, 10), torch.randint(0, 3, (4,))) for _ in range(8)]
Trainer(nn.Linear(10, 3), loader).train_epoch()
