# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: RMSELoss module: torch.sqrt(self.mse(yhat, y)) with nn.MSELoss kept on self; a batch fitted exactly (mse == 0) gives an infinite sqrt derivative and NaN gradients
# expect: line 19 — torch.sqrt(self.mse(yhat, y)) at mse == 0
# checked: ran (torch 2.13 CPU), reproduces (NaN in model.weight.grad when the batch is fitted exactly)

import torch
from torch import nn


class RMSELoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mse = nn.MSELoss()

    def forward(self, yhat, y):
        return torch.sqrt(self.mse(yhat, y))


model = nn.Linear(3, 1)
criterion = RMSELoss()
x = torch.randn(8, 3)
with torch.no_grad():
    y = model(x)  # targets the model already fits exactly
loss = criterion(model(x), y)
loss.backward()
print(torch.isnan(model.weight.grad).any().item())
