# source: https://github.com/RucDongLab/STAGATE_pyG/pull/6
# framework: torch
# family: C
# kind: history-kept-across-iterations
# negative: the proposed fix: the unused loss_list is removed, so no graph outlives its epoch
# mimics: positive/1113_stagate_loss_list_append.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F
from tqdm import tqdm


class STAGATE(nn.Module):
    def __init__(self, hidden_dims):
        super().__init__()
        in_dim, num_hidden, out_dim = hidden_dims
        self.enc = nn.Linear(in_dim, out_dim)
        self.dec = nn.Linear(out_dim, in_dim)

    def forward(self, features, edge_index):
        z = F.elu(self.enc(features))
        return z, self.dec(z)


def train_STAGATE(x, edge_index, hidden_dims=[32, 16, 8], n_epochs=5, lr=0.001, gradient_clipping=5., weight_decay=0.0001):
    model = STAGATE(hidden_dims=[x.shape[1]] + hidden_dims[1:])
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)

    for epoch in tqdm(range(1, n_epochs + 1), disable=True):
        model.train()
        optimizer.zero_grad()
        z, out = model(x, edge_index)
        loss = F.mse_loss(x, out)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), gradient_clipping)
        optimizer.step()
    return model, None


model, loss_list = train_STAGATE(torch.randn(20, 32), None)
