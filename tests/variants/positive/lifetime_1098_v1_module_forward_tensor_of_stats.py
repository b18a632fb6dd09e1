# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: a pooling module's forward builds its summary vector with torch.tensor([h.mean(), h.std(), h.max()]); the values are copied, so the head on top trains but the encoder below gets no gradient
# expect: line 15 — torch.tensor([...]) of tensor statistics is not differentiable; use torch.stack
# checked: ran, reproduces (encoder.weight.grad is None; only the head trains)

import torch
import torch.nn as nn


class StatsPool(nn.Module):
    def forward(self, h):
        return torch.tensor([h.mean(), h.std(), h.max()])


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 16)
        self.pool = StatsPool()
        self.head = nn.Linear(3, 1)

    def forward(self, x):
        return self.head(self.pool(torch.relu(self.encoder(x))))


model = Model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss = (model(torch.randn(5, 8)) - 1.0).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
