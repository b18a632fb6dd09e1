# source: https://github.com/nikhilsinghmus/image2reverb/issues/37
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: in the generator branch of a Lightning training_step the fake spectrogram is detached before the discriminator, so the adversarial term G_loss1 sends no gradient to the generator and only the reconstruction term trains it
# expect: line 27 — fake_spec.detach() in the generator step cuts the adversarial loss from the generator
# checked: ran, reproduces (G_loss1 gives the generator no gradient)

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
            d_fake2 = self.d(fake_spec.detach(), f)
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
