# source: variant of 3076_loss_input_recomputed_under_no_grad.py
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: a self-supervised step projects both views under `with torch.set_grad_enabled(False):` (meant for the target branch only), rebinding the online prediction too; the BYOL-style term has no graph and only the rotation term trains the encoder
# expect: line 30 — p_online = self.predictor(...) inside set_grad_enabled(False) replaces the online prediction that the BYOL term uses
# checked: ran, reproduces (byol.requires_grad is False while rot.requires_grad is True; backward runs silently)

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class SSLModel(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.predictor = nn.Linear(dim, dim)
        self.rot_head = nn.Linear(dim, 4)
        self.target_encoder = copy.deepcopy(self.encoder).requires_grad_(False)


def train_step(model, optimizer, v1, v2, rot_label):
    z1 = model.encoder(v1)
    rot = F.cross_entropy(model.rot_head(z1), rot_label)
    with torch.set_grad_enabled(False):
        t2 = model.target_encoder(v2)
        p_online = model.predictor(z1)
    byol = 2 - 2 * F.cosine_similarity(p_online, t2, dim=-1).mean()
    loss = rot + byol
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return rot, byol


model = SSLModel()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
rot, byol = train_step(model, opt, torch.randn(8, 16), torch.randn(8, 16), torch.randint(0, 4, (8,)))
print(byol.requires_grad, rot.requires_grad)
