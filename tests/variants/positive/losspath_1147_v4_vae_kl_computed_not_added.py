# source: variant of 1147_gan1d_gradient_penalty_never_added.py
# framework: torch
# family: A
# kind: other-loss-term-not-in-backward
# pitfall: the VAE's loss function computes the KL divergence but returns only the reconstruction term; the KL term is never backpropagated, so the posterior is not regularised (the model degenerates to an autoencoder)
# expect: line 29 — the returned loss omits kld, computed on the line above and never used
# checked: ran, reproduces (runs silently; the loss that is backpropagated does not contain the penalty term, so gradients are the same as without computing it)

import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, x_dim=16, z_dim=4):
        super().__init__()
        self.enc = nn.Linear(x_dim, 2 * z_dim)
        self.dec = nn.Linear(z_dim, x_dim)

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return torch.sigmoid(self.dec(z)), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.rand(8, 16)
recon, mu, logvar = model(x)
loss = loss_function(recon, x, mu, logvar)
optimizer.zero_grad()
loss.backward()
optimizer.step()
