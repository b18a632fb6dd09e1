# source: variant of 1075_gts_feature_linear_not_in_optimizer.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: configure_optimizers() builds per-part groups (encoder with a lower lr, classifier) and leaves out self.feature_linear, which forward uses
# expect: line 23 — the parameter groups omit self.feature_linear; it gets gradients but is never updated
# checked: ran, reproduces (the omitted layer has a .grad but is unchanged after optimizer.step())
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, dim=8, n_cls=4):
        super().__init__()
        self.encoder = nn.Linear(16, dim)
        self.feature_linear = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, n_cls)

    def forward(self, x):
        return self.classifier(torch.relu(self.feature_linear(self.encoder(x))))

    def configure_optimizers(self, lr=1e-3):
        return torch.optim.AdamW([
            {"params": self.encoder.parameters(), "lr": lr * 0.1},
            {"params": self.classifier.parameters(), "lr": lr},
        ])


if __name__ == "__main__":
    model = Tagger()
    optimizer = model.configure_optimizers()
    before = model.feature_linear.weight.detach().clone()
    optimizer.zero_grad()
    nn.functional.cross_entropy(model(torch.randn(2, 16)), torch.tensor([0, 1])).backward()
    optimizer.step()
    print("feature_linear unchanged:", torch.equal(before, model.feature_linear.weight),
          "has grad:", model.feature_linear.weight.grad is not None)
