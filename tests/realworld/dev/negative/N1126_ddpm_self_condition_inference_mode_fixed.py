# source: https://github.com/lucidrains/denoising-diffusion-pytorch/issues/286
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# negative: the reporter's working change: the self-conditioning estimate is computed under torch.no_grad(), whose outputs can be used by autograd afterwards
# mimics: positive/1126_ddpm_self_condition_inference_mode.py
# expect: no finding
# checked: ran, no error

from random import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class Unet(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        self.net = nn.Conv2d(dim * 2, dim, 3, padding=1)

    def forward(self, x, t, x_self_cond=None):
        if x_self_cond is None:
            x_self_cond = torch.zeros_like(x)
        return self.net(torch.cat((x_self_cond, x), dim=1))


class GaussianDiffusion(nn.Module):
    def __init__(self, model, self_condition=True):
        super().__init__()
        self.model = model
        self.self_condition = self_condition

    def model_predictions(self, x, t, x_self_cond=None):
        pred_x_start = self.model(x, t, x_self_cond)
        return type('ModelPrediction', (), {'pred_x_start': pred_x_start})

    def p_losses(self, x_start, t, noise=None):
        noise = torch.randn_like(x_start) if noise is None else noise
        x = x_start + noise

        x_self_cond = None
        if self.self_condition and random() < 2.0:
            with torch.no_grad():
                x_self_cond = self.model_predictions(x.clone().detach(), t).pred_x_start
                x_self_cond = x_self_cond.detach_()

        model_out = self.model(x, t, x_self_cond)
        return F.mse_loss(model_out, x_start)


diffusion = GaussianDiffusion(Unet())
loss = diffusion.p_losses(torch.randn(2, 4, 8, 8), torch.tensor([1, 2]))
loss.backward()
