# source: https://github.com/nikhilsinghmus/image2reverb/issues/37
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: the fix the maintainer confirmed: the generator step passes fake_spec to the discriminator without detach
# mimics: positive/1068_image2reverb_generator_step_detached_fake.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn.functional as F
from torch import nn
import pytorch_lightning as pl


class Image2Reverb(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(16, 8)
        self.g = nn.Linear(8, 32)
        self.d = nn.Bilinear(32, 8, 1)

    def training_step(self, batch, batch_idx, optimizer_idx):
        label, image = batch
        f = self.enc(image)
        fake_spec = self.g(f)
        if optimizer_idx == 0 or optimizer_idx == 1:
            d_fake2 = self.d(fake_spec, f)
            G_loss1 = F.mse_loss(d_fake2, torch.ones(d_fake2.shape, device=self.device))
            G_loss2 = F.l1_loss(fake_spec, label)
            G_loss = G_loss1 + 100 * G_loss2
            return G_loss
        d_fake = self.d(fake_spec.detach(), f.detach())
        d_real = self.d(label, f.detach())
        D_loss = 0.5 * (F.mse_loss(d_real, torch.ones(d_real.shape, device=self.device)) + F.mse_loss(d_fake, torch.zeros(d_fake.shape, device=self.device)))
        return D_loss


model = Image2Reverb()
batch = (torch.randn(4, 32), torch.randn(4, 16))
G_loss = model.training_step(batch, 0, 0)
G_loss.backward()
