# source: https://discuss.pytorch.org/t/if-a-parameter-is-trainable-in-the-following-case/149907/2
# family: E
# negative: comparisons produce 0/1 weights multiplying a differentiable hinge term, and argmax/round are used only for metrics
# mimics: comparisons / argmax / round between the model output and the loss
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(24, 32), nn.ReLU(), nn.Linear(32, 5))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(200):
    x, y = torch.randn(64, 24), torch.randint(0, 5, (64,))
    logits = model(x)
    true_score = logits.gather(1, y[:, None])
    margins = 1.0 + logits - true_score
    active = (margins > 0).float().scatter(1, y[:, None], 0.0)
    loss = (margins * active).sum(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (logits.argmax(1) == y).float().mean().item()
    rounded_conf = torch.round(logits.softmax(1).max(1).values * 10).mean().item()
