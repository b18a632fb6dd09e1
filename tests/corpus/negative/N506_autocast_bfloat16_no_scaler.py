# source: https://pytorch.org/docs/stable/amp.html
# family: E
# negative: autocast with dtype=torch.bfloat16 (same exponent range as float32) needs no GradScaler; backward() is called directly
# mimics: autocast + loss.backward() without GradScaler
# expect: no finding

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 10))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(50):
    x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))
    optimizer.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
