# source: negative twin of a variant of 1130_edsr_precision_half_training.py
# framework: torch
# family: E
# kind: fp16-master-weights
# negative: the fp16 flag no longer halves the model or inputs; weights stay float32 (autocast+GradScaler would be the mixed-precision fix)
# mimics: positive/1130_v1_config_flag_trainer.py
# expect: no finding
# checked: ran, loss finite
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    fp16: bool = True
    lr: float = 1e-3


class Trainer:
    def __init__(self, model, cfg):
        self.cfg = cfg
        self.model = model
        if cfg.fp16:
            pass
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.criterion = nn.L1Loss()

    def _to_dtype(self, t):
        return t

    def train_step(self, x, y):
        x, y = self._to_dtype(x), self._to_dtype(y)
        self.optimizer.zero_grad()
        loss = self.criterion(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()


net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 12, 3, padding=1), nn.PixelShuffle(2))
trainer = Trainer(net, Config())
for _ in range(4):
    print(trainer.train_step(torch.rand(2, 3, 8, 8), torch.rand(2, 3, 16, 16)))
