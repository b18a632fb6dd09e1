# source: variant of 1065_backward_create_graph_tanh_leak.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: a trainer adds a gradient-norm penalty by calling loss.backward(create_graph=True) and reading p.grad; the graph-carrying gradients stored in .grad form a reference cycle with the parameters, so each step's double-backward graph is kept
# expect: line 26 — .backward(create_graph=True) writes graph-carrying gradients into .grad (a reference cycle); use torch.autograd.grad(loss, params, create_graph=True)
# checked: ran, reproduces (after the step p.grad carries a grad_fn: the parameter/gradient reference cycle PyTorch warns about)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, gp_weight=0.1):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        self.gp_weight = gp_weight

    def compute_loss(self, x, y):
        return F.cross_entropy(self.model(x), y)

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.compute_loss(x, y)
        loss.backward(create_graph=True)
        grad_norm = sum(p.grad.pow(2).sum() for p in self.model.parameters())
        (self.gp_weight * grad_norm).backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    t = Trainer(nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 3)))
    t.train_step(torch.randn(4, 8), torch.randint(0, 3, (4,)))
