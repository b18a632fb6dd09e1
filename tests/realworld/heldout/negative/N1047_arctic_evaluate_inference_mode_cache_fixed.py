# source: https://github.com/snowflakedb/ArcticTraining/pull/265
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# negative: the merged fix: evaluation runs under torch.no_grad() instead, whose tensors can be used by autograd later
# mimics: positive/1047_arctic_evaluate_inference_mode_cache.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class RotaryLinear(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self._cos_cached = None

    def forward(self, x):
        if self._cos_cached is None or self._cos_cached.shape[0] < x.shape[1]:
            t = torch.arange(x.shape[1], dtype=torch.float32)
            self._cos_cached = torch.cos(t)[:, None].expand(-1, x.shape[-1])
        return self.proj(x) * self._cos_cached[: x.shape[1]]


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)

    def step(self, batch):
        self.model.train()
        loss = self.model(batch).pow(2).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()

    @torch.no_grad()
    def evaluate(self, batch):
        """
        Evaluation loop. Measures the model's performance on the evaluation dataset.
        """
        self.model.eval()
        return self.model(batch).pow(2).mean().item()

    def train(self):
        self.evaluate(torch.randn(2, 8, 4))
        self.step(torch.randn(2, 8, 4))


Trainer(RotaryLinear(4)).train()
