# source: https://github.com/ApolloResearch/e2e_sae/pull/46
# framework: torch
# family: D
# kind: data-mutation
# pitfall: the sparse autoencoder renormalises its dictionary by assigning to self.decoder.weight.data inside forward; autograd does not see the normalisation, so the gradients (and Adam's statistics) refer to a weight that is silently rescaled on every call
# expect: line 25 — writing to .data in forward hides the normalisation from autograd; normalise into a new tensor and use F.linear instead
# checked: ran (the assignment runs silently; the gradient is computed as if the normalisation did not exist)

import torch
import torch.nn.functional as F
from torch import nn


class SAE(nn.Module):
    def __init__(self, input_size, n_dict_components):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(input_size, n_dict_components, bias=True), nn.ReLU())
        self.decoder = nn.Linear(n_dict_components, input_size, bias=True)
        self.n_dict_components = n_dict_components
        self.input_size = input_size

    def forward(self, x):
        c = self.encoder(x)
        # Apply unit norm constraint to the decoder weights
        self.decoder.weight.data = F.normalize(self.decoder.weight.data, dim=0)
        x_hat = self.decoder(c)
        return x_hat, c


sae = SAE(16, 64)
optimizer = torch.optim.Adam(sae.parameters(), lr=1e-3)
for step in range(3):
    x = torch.randn(8, 16)
    x_hat, c = sae(x)
    loss = F.mse_loss(x_hat, x) + 1e-3 * c.abs().sum(-1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
