# source: https://github.com/pytorch/pytorch/issues/632
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: inside the module's __init__ the per-relation weights (nn.Parameter) and layers (nn.Linear) are kept in plain Python dicts, so none of them is registered: model.parameters() (and any optimizer built from it) does not contain them
# expect: line 17 — self.waggrs is a plain dict of Parameters (and self.list_relations one of Linear layers); they need nn.ParameterDict / nn.ModuleDict to be registered
# checked: ran, reproduces (parameters() holds only the registered layer; the dict entries are never updated); the __init__ snippet completed into a module with a training step

import torch
import torch.nn as nn


class RelationNet(nn.Module):
    def __init__(self, numfeatures=4, numrel=4):
        super(RelationNet, self).__init__()
        self.out = nn.Linear(numrel, 1)
        self.waggrs = {}
        self.list_relations={}
        for rel in range(10):
         self.waggrs[rel]={'w':nn.Parameter(1.+torch.randn(1, 2)),'b':nn.Parameter(torch.zeros(1, 4))}
         self.list_relations[rel]=nn.Linear(numfeatures, numrel)

    def forward(self, x, rel):
        h = self.list_relations[rel](x) * self.waggrs[rel]['w'].sum() + self.waggrs[rel]['b']
        return self.out(h)


model = RelationNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
print(len(list(model.parameters())))
loss = model(torch.randn(3, 4), rel=2).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
