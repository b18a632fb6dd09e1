# Correct: float16 autocast with a GradScaler.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 12)
for step in range(20):
    x, y = torch.randn(64, 64), torch.randn(64, 1)
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss = ((model(x) - y) ** 2).mean() * 1e-3
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
