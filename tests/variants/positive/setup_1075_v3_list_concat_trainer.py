# source: variant of 1075_gts_feature_linear_not_in_optimizer.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: a Trainer receives the model and gathers parameters with list(a.parameters()) + list(b.parameters()), leaving out model.fusion which forward uses
# expect: line 26 — the concatenated parameter list omits self.model.fusion
# checked: ran, reproduces (the omitted layer has a .grad but is unchanged after optimizer.step())
import torch
import torch.nn as nn


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.text = nn.Linear(8, 8)
        self.image = nn.Linear(12, 8)
        self.fusion = nn.Linear(16, 2)

    def forward(self, t, i):
        return self.fusion(torch.cat([self.text(t), self.image(i)], -1))


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        params = list(self.model.text.parameters()) + list(self.model.image.parameters())
        self.optimizer = torch.optim.SGD(params, lr=lr)

    def train_epoch(self, loader):
        for t, i, y in loader:
            self.optimizer.zero_grad()
            loss = nn.functional.cross_entropy(self.model(t, i), y)
            loss.backward()
            self.optimizer.step()


if __name__ == "__main__":
    model = TwoTower()
    tr = Trainer(model)
    before = model.fusion.weight.detach().clone()
    tr.train_epoch([(torch.randn(2, 8), torch.randn(2, 12), torch.tensor([0, 1]))])
    print("fusion unchanged:", torch.equal(before, model.fusion.weight))
