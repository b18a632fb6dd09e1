# source: synthetic
# family: E
# pitfall: ordinal rating regressor trains on torch.round(4 * sigmoid(out)) so that the prediction is an integer star rating
# expect: line 16 — round() has zero gradient everywhere: the loss reaches the model only through round, so all parameter gradients are exactly 0

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(24, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(300):
    x = torch.randn(64, 24)
    stars = torch.randint(0, 5, (64, 1)).float()
    pred_stars = torch.round(4 * torch.sigmoid(model(x)))
    loss = F.l1_loss(pred_stars, stars)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(model[0].weight.grad.abs().sum())  # tensor(0.)
