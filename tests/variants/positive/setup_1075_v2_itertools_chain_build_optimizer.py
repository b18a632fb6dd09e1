# source: variant of 1075_gts_feature_linear_not_in_optimizer.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: build_optimizer(model) chains the encoder and decoder parameters with itertools.chain and forgets model.bottleneck, which forward uses
# expect: line 25 — the chained parameters omit model.bottleneck; it is never updated
# checked: ran, reproduces (the omitted layer has a .grad but is unchanged after optimizer.step())
import itertools
import torch
import torch.nn as nn


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(16, 8)
        self.bottleneck = nn.Linear(8, 4)
        self.decoder = nn.Linear(4, 16)

    def forward(self, x):
        return self.decoder(torch.relu(self.bottleneck(torch.relu(self.encoder(x)))))


def build_optimizer(model, lr=1e-2):
    params = itertools.chain(model.encoder.parameters(), model.decoder.parameters())
    return torch.optim.Adam(params, lr=lr)


def train_epoch(model, optimizer, loader):
    for x in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), x)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    model = AutoEncoder()
    optimizer = build_optimizer(model)
    before = model.bottleneck.weight.detach().clone()
    train_epoch(model, optimizer, [torch.randn(4, 16)])
    print("bottleneck unchanged:", torch.equal(before, model.bottleneck.weight))
