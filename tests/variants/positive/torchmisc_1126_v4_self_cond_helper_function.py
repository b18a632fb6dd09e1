# source: variant of 1126_ddpm_self_condition_inference_mode.py
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# pitfall: self-conditioning in a diffusion training loss: the first estimate is computed in a helper wrapped in torch.inference_mode() and then fed to the denoiser as its second input; the denoiser multiplies it with a learned gate (saved for backward), so backward() fails even after .clone()
# expect: line 29 — torch.inference_mode() makes the self-conditioning estimate an inference tensor that the training forward saves for backward; use torch.no_grad()
# checked: ran, reproduces (RuntimeError: Inference tensors cannot be saved for backward)

import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class Denoiser(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.gate = nn.Parameter(torch.ones(dim))
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.SiLU(), nn.Linear(32, dim))

    def forward(self, x, self_cond=None):
        if self_cond is None:
            self_cond = torch.zeros_like(x)
        return self.net(x + self.gate * self_cond)


def self_condition_estimate(model, x_t):
    with torch.inference_mode():
        return model(x_t).clone()


def diffusion_loss(model, x0, p_self_cond=1.0):
    noise = torch.randn_like(x0)
    x_t = x0 + noise
    self_cond = None
    if random.random() < p_self_cond:
        self_cond = self_condition_estimate(model, x_t)
    pred = model(x_t, self_cond)
    return F.mse_loss(pred, noise)


model = Denoiser()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
loss = diffusion_loss(model, torch.randn(4, 8))
opt.zero_grad()
loss.backward()
opt.step()
