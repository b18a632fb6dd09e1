# source: synthetic
# family: A
# pitfall: custom VAE loss module turns the KL term into a Python float with .item() (to return it for logging) and adds that float to the loss
# expect: line 18 — .item() on the KL term: the KL contributes to the printed loss but not to the gradient; the posterior is never regularised

import torch
from torch import nn
import torch.nn.functional as F


class VAELoss(nn.Module):
    def __init__(self, beta=1.0):
        super().__init__()
        self.beta = beta

    def forward(self, recon, x, mu, logvar):
        rec = F.binary_cross_entropy(recon, x, reduction="sum") / x.size(0)
        kld = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1)).item()
        return rec + self.beta * kld, {"rec": rec.item(), "kld": kld}


enc, dec = nn.Linear(784, 2 * 16), nn.Sequential(nn.Linear(16, 784), nn.Sigmoid())
criterion = VAELoss(beta=4.0)
opt = torch.optim.Adam([*enc.parameters(), *dec.parameters()], lr=1e-3)

for step in range(100):
    x = torch.rand(32, 784)
    mu, logvar = enc(x).chunk(2, dim=-1)
    z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
    loss, parts = criterion(dec(z), x, mu, logvar)
    opt.zero_grad()
    loss.backward()
    opt.step()
