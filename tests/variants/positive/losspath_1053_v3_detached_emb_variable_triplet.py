# source: variant of 1053_dsn_memory_loss_on_detached_features.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: the embedding is detached into a separate variable "to save memory" and the triplet term is computed from it with F.triplet_margin_loss; the term added to the classification loss is a constant
# expect: line 22 — emb_d = emb.detach() feeds only the triplet term; loss_tri adds a constant to the loss and never shapes the embedding
# checked: ran, reproduces (loss_tri.requires_grad is False)

import torch
import torch.nn as nn
import torch.nn.functional as F

backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16))
head = nn.Linear(16, 4)
optimizer = torch.optim.Adam(list(backbone.parameters()) + list(head.parameters()), lr=1e-3)

anchor_x, pos_x, neg_x = torch.randn(8, 32), torch.randn(8, 32), torch.randn(8, 32)
labels = torch.randint(0, 4, (8,))

emb = backbone(torch.cat([anchor_x, pos_x, neg_x]))
loss_ce = F.cross_entropy(head(emb[:8]), labels)
emb_d = emb.detach()
a, p, n = emb_d[:8], emb_d[8:16], emb_d[16:]
loss_tri = F.triplet_margin_loss(a, p, n, margin=0.3)
loss = loss_ce + loss_tri
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss_tri.requires_grad)
