# source: synthetic
# family: C
# pitfall: contractive autoencoder: the encoder Jacobian penalty uses torch.autograd.grad(..., retain_graph=True) but not create_graph=True
# expect: line 18 — without create_graph the Jacobian is a constant: the contractive penalty adds to the loss value but gives the encoder no gradient (silently)

import torch
import torch.nn as nn

encoder = nn.Sequential(nn.Linear(784, 64), nn.Sigmoid())
decoder = nn.Sequential(nn.Linear(64, 784), nn.Sigmoid())
opt = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()], lr=1e-3)
lam = 1e-4

for step in range(200):
    x = torch.rand(32, 784).requires_grad_(True)
    h = encoder(x)
    recon = nn.functional.binary_cross_entropy(decoder(h), x.detach())
    jac = torch.autograd.grad(h, x, grad_outputs=torch.ones_like(h), retain_graph=True)[0]
    contractive = jac.pow(2).sum(dim=1).mean()
    loss = recon + lam * contractive
    opt.zero_grad()
    loss.backward()
    opt.step()
