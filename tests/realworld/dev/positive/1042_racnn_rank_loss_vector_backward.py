# source: https://github.com/dillondavis/RecurrentAttentionConvolutionalNeuralNetwork/issues/4
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: the pairwise ranking loss returns one value per sample; with batch_size 32 instead of 1, .backward() is called on a vector
# expect: line 29 — backward() on a per-sample loss vector: "grad can be implicitly created only for scalar outputs" (reduce with .mean()/.sum() first)
# checked: ran, reproduces

import torch
import torch.nn as nn
import torch.nn.functional as F


class Manager(object):
    def __init__(self, model, margin=0.05):
        self.model = model
        self.margin = margin

    def criterion_rank(self, scores1, scores2, target):
        ps1 = F.softmax(scores1, dim=1).gather(1, target.long().view(-1, 1))
        ps2 = F.softmax(scores2, dim=1).gather(1, target.long().view(-1, 1))
        return torch.clamp(ps1 - ps2 + self.margin, min=0)

    def do_batch(self, optimizer, batch, label, optimize_class=True):
        scores = self.model(batch)
        optimizer.zero_grad()
        for i in range(1, len(scores)):
            retain_graph = i < len(scores) - 1
            self.criterion_rank(scores[i-1], scores[i], label).backward(retain_graph=retain_graph)
        optimizer.step()


class RACNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleList([nn.Linear(8, 200) for _ in range(3)])

    def forward(self, x):
        return [h(x) for h in self.heads]


model = RACNN()
manager = Manager(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
manager.do_batch(optimizer, torch.randn(32, 8), torch.randint(0, 200, (32,)))
