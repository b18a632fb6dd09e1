# source: variant of 1018_rae_zero_grad_per_microbatch.py
# framework: torch
# family: D
# kind: misplaced-zero-grad
# pitfall: a trainer splits each batch with batch.chunk(self.accum_steps) and clears the optimizer inside the micro-batch loop; the step after the loop uses only the last chunk's gradient
# expect: line 24 — self.optimizer.zero_grad(set_to_none=True) inside the micro-batch loop discards the gradients of the earlier chunks
# checked: ran, reproduces (a step pre-hook counting backward calls since the last clear: [1, 1] instead of [4, 4])

import torch
import torch.nn as nn
import torch.nn.functional as F


class AutoencoderTrainer:
    def __init__(self, model, accum_steps=4, lr=2e-4):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
        self.accum_steps = accum_steps

    def train_step(self, batch):
        self.model.train()
        total = 0.0
        for micro in batch.chunk(self.accum_steps):
            self.optimizer.zero_grad(set_to_none=True)
            loss = F.mse_loss(self.model(micro), micro) / self.accum_steps
            loss.backward()
            total += loss.item()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        return total


trainer = AutoencoderTrainer(nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16)))
for batch in [torch.randn(32, 16) for _ in range(2)]:
    trainer.train_step(batch)
