# source: https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-clipping
# family: E
# negative: AMP training step unscales the gradients with scaler.unscale_(opt) before clip_grad_norm_
# mimics: clip_grad_norm_ with a GradScaler
# expect: no finding

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
        self.scaler.unscale_(self.opt)
        nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=1.0)
        self.scaler.step(self.opt)
        self.scaler.update()
        return loss.item()


t = Trainer(nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10)))
t.train_step(torch.randn(32, 128, device="cuda"), torch.randint(0, 10, (32,), device="cuda"))
