# source: https://github.com/ApolloResearch/e2e_sae/pull/46
# framework: torch
# family: D
# kind: data-mutation
# negative: the merged fix: the normalised dictionary is a new tensor computed from the weight (differentiable) and applied with F.linear; the parameter's .data is left alone
# mimics: positive/1085_e2e_sae_decoder_weight_data_normalised.py
# expect: no finding
# checked: ran, no error

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
        dict_elements = F.normalize(self.decoder.weight, dim=0)
        x_hat = F.linear(c, dict_elements, self.decoder.bias)
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
