# source: variant of 3018_torch_acos_clamp_cos2theta.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: cosine computed with intermediate names then clamp_ and .arccos() in a Trainer method; a prediction parallel to its target gives cos == 1
# expect: line 22 — cos_sim.arccos() at cos == 1
# checked: ran (torch 2.13 CPU), reproduces (model.weight becomes all nan after the step)

import torch
from torch import nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def angular_error(self, pred, target):
        dots = (pred * target).sum(dim=1)
        norms = pred.norm(dim=1) * target.norm(dim=1)
        cos_sim = (dots / norms).clamp(min=-1.0, max=1.0)
        return cos_sim.arccos()

    def train_step(self, x, target):
        loss = self.angular_error(self.model(x), target).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss


model = nn.Linear(3, 3, bias=False)
with torch.no_grad():
    model.weight.copy_(torch.eye(3))
t = Trainer(model)
x = torch.tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]])
t.train_step(x, x.clone())
print(model.weight)
