# source: negative twin of a variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# negative: the gradients are cleared right after the optimizer step, inside the same modulo branch
# mimics: positive/3049_v1_trainer_self_every_k.py
# expect: no finding
# checked: ran; the step pre-hook counts [4, 4] backward calls per step

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
            loss = self.compute_loss(batch) / self.grad_accum
            loss.backward()
            if (step + 1) % self.grad_accum == 0:
                self.optimizer.step()
                self.scheduler.step()
                self.optimizer.zero_grad()


loader = [(torch.randn(4, 10), torch.randint(0, 3, (4,))) for _ in range(8)]
Trainer(nn.Linear(10, 3), loader).train_epoch()
