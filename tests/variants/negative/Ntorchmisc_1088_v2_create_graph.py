# source: negative twin of a variant of 1088_functional_jacobian_without_create_graph.py
# framework: torch
# family: C
# kind: grad-without-create-graph
# negative: jacobian(self.encoder, x[:1], create_graph=True): the contractive term is differentiated
# mimics: positive/1088_v2_contractive_ae_jacobian_import.py
# expect: no finding
# checked: ran; the encoder gradients differ between lam=0 and lam=10

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
        J = jacobian(self.encoder, x[:1], create_graph=True)
        return recon + self.lam * J.pow(2).sum()


model = ContractiveAE()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    loss = model.loss(torch.randn(8, 6))
    loss.backward()
    opt.step()
