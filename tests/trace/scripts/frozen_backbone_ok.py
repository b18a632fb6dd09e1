# Correct: a frozen backbone, meant to have no gradient, not in the optimizer.
import torch
import torch.nn as nn

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16))
for p in backbone.parameters():
    p.requires_grad_(False)
backbone.eval()
extractor = nn.Linear(8, 16)  # a second frozen part: used under no_grad only
head = nn.Linear(32, 1)
opt = torch.optim.Adam(head.parameters(), lr=1e-3)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    with torch.no_grad():
        extra = extractor(x)
    feats = torch.cat([backbone(x), extra], dim=1)
    loss = nn.functional.mse_loss(head(feats), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
