# source: negative twin of 1065_v1_trainer_grad_norm_penalty.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: none: torch.autograd.grad(create_graph=True) does not store the gradients in .grad
# checked: ran (no error; gradients reach the model)

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
        grads = torch.autograd.grad(loss, list(self.model.parameters()), create_graph=True)
        grad_norm = sum(g.pow(2).sum() for g in grads)
        (loss + self.gp_weight * grad_norm).backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    t = Trainer(nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 3)))
    t.train_step(torch.randn(4, 8), torch.randint(0, 3, (4,)))
