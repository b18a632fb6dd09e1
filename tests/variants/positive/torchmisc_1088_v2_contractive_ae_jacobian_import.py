# source: variant of 1088_functional_jacobian_without_create_graph.py
# framework: torch
# family: C
# kind: grad-without-create-graph
# pitfall: a contractive autoencoder penalises the encoder's Jacobian computed with `jacobian` imported from torch.autograd.functional but without create_graph=True; the Jacobian is a constant, so the contractive term adds nothing to the encoder's gradient
# expect: line 25 — functional.jacobian without create_graph=True returns a result detached from the encoder; the penalty is not differentiated
# checked: ran, reproduces (the Jacobian has no grad_fn; encoder gradients are identical with lam=0 and lam=10)

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.functional import jacobian


class ContractiveAE(nn.Module):
    def __init__(self, d_in=6, d_hid=3, lam=10.0):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, d_hid), nn.Sigmoid())
        self.decoder = nn.Linear(d_hid, d_in)
        self.lam = lam

    def loss(self, x):
        h = self.encoder(x)
        recon = F.mse_loss(self.decoder(h), x)
        J = jacobian(self.encoder, x[:1])
        return recon + self.lam * J.pow(2).sum()


model = ContractiveAE()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    loss = model.loss(torch.randn(8, 6))
    loss.backward()
    opt.step()
