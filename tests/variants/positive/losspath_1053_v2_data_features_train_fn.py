# source: variant of 1053_dsn_memory_loss_on_detached_features.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: inside a train_one_epoch(model, memory, optimizer, loader) function, the memory loss is computed from features.data; .data has no history, so the term added to the loss never trains the model
# expect: line 29 — loss_memory is built from features.data (no history) and the memory's constant bank; it contributes nothing to backward
# checked: ran, reproduces (loss_memory.requires_grad is False)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Memory(object):
    def __init__(self, size=64, dim=16):
        self.feats = torch.randn(size, dim)
        self.labels = torch.randint(0, 3, (size,))

    def memory_loss(self, feat, label):
        sim = F.normalize(feat, dim=1) @ F.normalize(self.feats, dim=1).t()
        same = (label[:, None] == self.labels[None, :]).float()
        return (sim * same).sum() / same.sum().clamp(min=1)


def train_one_epoch(model, memory, optimizer, loader):
    for inputs, labels in loader:
        features = model(inputs)
        loss_cls = features.pow(2).mean()
        loss_memory = 1.0 - memory.memory_loss(features.data, labels)
        loss = loss_cls + loss_memory
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss_memory


model = nn.Linear(32, 16)
lm = train_one_epoch(model, Memory(), torch.optim.SGD(model.parameters(), lr=0.01),
                     [(torch.randn(8, 32), torch.randint(0, 3, (8,)))])
print(lm.requires_grad)
