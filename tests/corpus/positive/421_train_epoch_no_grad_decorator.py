# source: synthetic
# family: D
# pitfall: a train function was created by copying the evaluation function, including its @torch.no_grad() decorator
# expect: line 20 — the whole function runs with grad disabled: loss has no grad_fn and backward() raises "element 0 of tensors does not require grad"

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()


@torch.no_grad()
def train(loader):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()


train([(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(10)])
