# source: https://pytorch.org/docs/stable/notes/amp_examples.html
# family: D
# pitfall: AMP loop: optimizer.zero_grad() placed between scaler.scale(loss).backward() and scaler.step(optimizer)
# expect: line 20 — gradients are cleared after backward and before scaler.step(): no update is ever applied (with set_to_none=True scaler.step finds no grads and asserts "No inf checks were recorded for this optimizer")

import torch
import torch.nn as nn

device = "cuda"
model = nn.Sequential(nn.Linear(512, 512), nn.GELU(), nn.Linear(512, 10)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
scaler = torch.amp.GradScaler("cuda")

for step in range(1000):
    x = torch.randn(64, 512, device=device)
    y = torch.randint(0, 10, (64,), device=device)
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        loss = nn.functional.cross_entropy(model(x), y)
    scaler.scale(loss).backward()
    optimizer.zero_grad(set_to_none=True)
    scaler.step(optimizer)
    scaler.update()
