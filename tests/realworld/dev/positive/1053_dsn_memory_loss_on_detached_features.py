# source: https://github.com/haowang1992/DSN/issues/2
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: the memory loss is computed from features[...].detach(), so the term added to the training loss has no gradient and never trains the encoder
# expect: line 46 — loss_memory is built only from detached features and labels; it contributes nothing to backward
# checked: ran, reproduces (loss_memory has no grad_fn)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Memory(object):
    def __init__(self, size=64, dim=16):
        self.feats = torch.zeros(size, dim)
        self.labels = torch.zeros(size, dtype=torch.long)
        self.ptr = 0

    def add_entries(self, feat_s, label_s, feat_i, label_i):
        n = feat_s.size(0)
        self.feats[self.ptr:self.ptr + n] = feat_s
        self.labels[self.ptr:self.ptr + n] = label_s
        self.ptr += n

    def memory_loss(self, feat, label):
        sim = F.normalize(feat, dim=1) @ F.normalize(self.feats[:self.ptr], dim=1).t()
        same = (label[:, None] == self.labels[None, :self.ptr]).float()
        return (sim * same).sum() / same.sum().clamp(min=1)


model = nn.Linear(32, 16)
memory = Memory()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

inputs = torch.randn(8, 32)
tag_zeros = torch.zeros(4)
tag_all = torch.zeros(8)
label_s = torch.randint(0, 3, (4,))
label_i = torch.randint(0, 3, (4,))

features = model(inputs)
loss_cls = features.pow(2).mean()
memory.add_entries(features[:tag_zeros.size(0)].detach(), label_s.detach(),
                   features[tag_zeros.size(0):tag_all.size(0)].detach(), label_i.detach())
loss_memory = 1.0 - memory.memory_loss(features[tag_zeros.size(0):tag_all.size(0)].detach(), label_i.detach())
loss = loss_cls + loss_memory
optimizer.zero_grad()
loss.backward()
optimizer.step()
