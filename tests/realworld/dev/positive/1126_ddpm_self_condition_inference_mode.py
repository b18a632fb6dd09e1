# source: https://github.com/lucidrains/denoising-diffusion-pytorch/issues/286
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# pitfall: with self-conditioning, the self-conditioning estimate is computed under torch.inference_mode() inside the training loss; the result is an inference tensor, and feeding it to the model in the same training step fails in backward ("Inference tensors cannot be saved for backward"), even with clone()/detach_()
# expect: line 43 — torch.inference_mode() inside p_losses makes x_self_cond an inference tensor that the training forward then saves for backward; use torch.no_grad()
# checked: ran; the reduced Unet (torch.cat then a conv) does not hit the error, which the thread gets inside the full model

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
            with torch.inference_mode():
                x_self_cond = self.model_predictions(x.clone().detach(), t).pred_x_start
                x_self_cond = x_self_cond.detach_()

        model_out = self.model(x, t, x_self_cond)
        return F.mse_loss(model_out, x_start)


diffusion = GaussianDiffusion(Unet())
loss = diffusion.p_losses(torch.randn(2, 4, 8, 8), torch.tensor([1, 2]))
loss.backward()
