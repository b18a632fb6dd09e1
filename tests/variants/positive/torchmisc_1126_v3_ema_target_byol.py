# source: variant of 1126_ddpm_self_condition_inference_mode.py
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# pitfall: a BYOL-style learner gets the target projection from the EMA network inside `with torch.inference_mode():` in forward(); the target is an inference tensor, and the cosine loss with the online prediction saves it for backward, so loss.backward() fails
# expect: line 32 — torch.inference_mode() in forward makes the target an inference tensor that the loss saves for backward; use torch.no_grad()
# checked: ran, reproduces (RuntimeError: Inference tensors cannot be saved for backward)

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class BYOL(nn.Module):
    def __init__(self, encoder, dim=16):
        super().__init__()
        self.online = encoder
        self.predictor = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.target = copy.deepcopy(encoder)
        for p in self.target.parameters():
            p.requires_grad = False

    def loss_fn(self, p, z):
        p = F.normalize(p, dim=-1)
        return 2 - 2 * (p * z).sum(dim=-1)

    def forward(self, v1, v2):
        p1 = self.predictor(self.online(v1))
        p2 = self.predictor(self.online(v2))
        with torch.inference_mode():
            z1 = F.normalize(self.target(v1), dim=-1)
            z2 = F.normalize(self.target(v2), dim=-1)
        return (self.loss_fn(p1, z2) + self.loss_fn(p2, z1)).mean()


learner = BYOL(nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 16)))
opt = torch.optim.Adam([p for p in learner.parameters() if p.requires_grad], lr=3e-4)
x = torch.randn(8, 12)
loss = learner(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
opt.zero_grad()
loss.backward()
opt.step()
