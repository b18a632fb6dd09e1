# source: variant of 1075_gts_feature_linear_not_in_optimizer.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: none — configure_optimizers() splits model.named_parameters() by name into encoder / rest groups: every parameter is covered
# checked: ran, correct (feature_linear updated)
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
        enc = [p for n, p in self.named_parameters() if n.startswith("encoder.")]
        rest = [p for n, p in self.named_parameters() if not n.startswith("encoder.")]
        return torch.optim.AdamW([{"params": enc, "lr": lr * 0.1}, {"params": rest, "lr": lr}])


if __name__ == "__main__":
    model = Tagger()
    optimizer = model.configure_optimizers()
    before = model.feature_linear.weight.detach().clone()
    optimizer.zero_grad()
    nn.functional.cross_entropy(model(torch.randn(2, 16)), torch.tensor([0, 1])).backward()
    optimizer.step()
    print("feature_linear changed:", not torch.equal(before, model.feature_linear.weight))
