import torch
import torch.nn as nn

torch.manual_seed(0)
encoder = nn.Linear(8, 16)
head = nn.Linear(16, 1)
opt = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=1e-3)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    feat = torch.relu(encoder(x)).detach()  # expect: GL103
    loss = ((head(feat) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
