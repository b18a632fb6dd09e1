# source: https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-clipping
# family: E
# pitfall: Trainer.train_step with GradScaler clips gradients with clip_grad_norm_ directly after scaler.scale(loss).backward()
# expect: line 21 — the gradients are still multiplied by the loss scale (2**16 at start): clipping to 1.0 effectively zeroes the update; call self.scaler.unscale_(self.opt) first

import torch
from torch import nn


class Trainer:
    def __init__(self, model):
        self.model = model.cuda()
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=5e-4)
        self.scaler = torch.amp.GradScaler("cuda")

    def train_step(self, x, y):
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = nn.functional.cross_entropy(self.model(x), y)
        self.scaler.scale(loss).backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=1.0)
        self.scaler.step(self.opt)
        self.scaler.update()
        return loss.item()


t = Trainer(nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10)))
t.train_step(torch.randn(32, 128, device="cuda"), torch.randint(0, 10, (32,), device="cuda"))
