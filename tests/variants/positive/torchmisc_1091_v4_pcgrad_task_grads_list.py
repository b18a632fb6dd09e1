# source: variant of 1091_diffgrad_previous_grad_alias.py
# framework: torch
# family: D
# kind: grad-kept-without-clone
# pitfall: a PCGrad-style multi-task step keeps each task's gradient as a list of the shared parameters' .grad tensors; the next task's zero_grad(set_to_none=False) and backward rewrite those buffers in place, so every "task gradient" is the last task's and no conflict is ever projected out
# expect: line 31 — the list holds the live .grad buffers: keep [p.grad.clone() for p in shared]
# checked: ran, reproduces (task_grads[0] and task_grads[1] are the same tensors, cosine 1.0, although the tasks' gradients differ)

import torch
import torch.nn as nn


class MultiTaskModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Linear(6, 8)
        self.heads = nn.ModuleList([nn.Linear(8, 1), nn.Linear(8, 1)])

    def forward(self, x):
        h = torch.relu(self.shared(x))
        return [head(h) for head in self.heads]


def pcgrad_step(model, optimizer, x, ys):
    shared = list(model.shared.parameters())
    task_grads = []
    for t, y in enumerate(ys):
        optimizer.zero_grad(set_to_none=False)
        loss = (model(x)[t] - y).pow(2).mean()
        loss.backward()
        task_grads.append([p.grad for p in shared])
    g0 = torch.cat([g.flatten() for g in task_grads[0]])
    g1 = torch.cat([g.flatten() for g in task_grads[1]])
    print("cosine between task gradients:", torch.cosine_similarity(g0, g1, dim=0).item())
    optimizer.step()


model = MultiTaskModel()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(16, 6)
pcgrad_step(model, optimizer, x, [x[:, :1], -x[:, 1:2]])
