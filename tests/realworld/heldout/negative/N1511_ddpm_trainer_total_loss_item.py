# source: https://github.com/lucidrains/denoising-diffusion-pytorch/issues/251
# framework: torch
# family: D
# kind: misplaced-zero-grad
# negative: each micro-batch loss is divided by gradient_accumulate_every and backpropagated on its own (gradients accumulate in .grad); total_loss only collects .item() values for logging, and zero_grad runs once after the step
# mimics: gradient accumulation where the accumulated loss is not the one backpropagated
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class Trainer(object):
    def __init__(self, diffusion_model, dl, train_lr=1e-4, gradient_accumulate_every=2, train_num_steps=3):
        self.model = diffusion_model
        self.dl = iter(dl)
        self.gradient_accumulate_every = gradient_accumulate_every
        self.train_num_steps = train_num_steps
        self.opt = torch.optim.Adam(diffusion_model.parameters(), lr=train_lr, betas=(0.9, 0.99))
        self.step = 0

    def train(self):
        while self.step < self.train_num_steps:
            total_loss = 0.

            for _ in range(self.gradient_accumulate_every):
                data = next(self.dl)
                loss = self.model(data)
                loss = loss / self.gradient_accumulate_every
                total_loss += loss.item()
                loss.backward()

            nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.opt.step()
            self.opt.zero_grad()
            self.step += 1


class Diffusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(8, 8)

    def forward(self, x):
        noise = torch.randn_like(x)
        return nn.functional.mse_loss(self.net(x + noise), noise)


Trainer(Diffusion(), [torch.randn(4, 8) for _ in range(6)]).train()
