# source: variant of 1053_dsn_memory_loss_on_detached_features.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: fixed twin: the memory term is computed from the live features (the bank stays constant)
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn
import torch.nn.functional as F


def memory_loss(feat, label, bank_feats, bank_labels):
    sim = F.normalize(feat, dim=1) @ F.normalize(bank_feats, dim=1).t()
    same = (label[:, None] == bank_labels[None, :]).float()
    return 1.0 - (sim * same).sum() / same.sum().clamp(min=1)


encoder = nn.Linear(32, 16)
classifier = nn.Linear(16, 3)
optimizer = torch.optim.SGD(list(encoder.parameters()) + list(classifier.parameters()), lr=0.01)
bank_feats = torch.randn(64, 16)
bank_labels = torch.randint(0, 3, (64,))

for step in range(2):
    x = torch.randn(8, 32)
    y = torch.randint(0, 3, (8,))
    feats = encoder(x)
    losses = {}
    losses["cls"] = F.cross_entropy(classifier(feats), y)
    losses["memory"] = memory_loss(feats, y, bank_feats, bank_labels)
    loss = sum(losses.values())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(losses["memory"].requires_grad)
