# source: synthetic
# family: A
# pitfall: KL term ported from a NumPy reference keeps np.exp(logvar) on a tensor that requires grad
# expect: line 25 — np.exp on a graph tensor calls .numpy(): "Can't call numpy() on Tensor that requires grad" (and would detach the KL term)

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d_in=784, d_z=8):
        super().__init__()
        self.hidden = nn.Linear(d_in, 128)
        self.mu = nn.Linear(128, d_z)
        self.logvar = nn.Linear(128, d_z)

    def forward(self, x):
        h = F.relu(self.hidden(x))
        return self.mu(h), self.logvar(h)


def kl_divergence(mu, logvar):
    return -0.5 * torch.sum(1 + logvar - mu ** 2 - np.exp(logvar))


enc = Encoder()
mu, logvar = enc(torch.rand(16, 784))
loss = kl_divergence(mu, logvar) / 16
loss.backward()
