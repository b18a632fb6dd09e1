# source: variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# pitfall: a mixed-precision loop clears the optimizer at the top of every iteration, scales the loss through a GradScaler and steps with scaler.step(optimizer) only every accum_iter iterations; only the last micro-batch's gradients reach each step
# expect: line 20 — optimizer.zero_grad() on every iteration of an accumulate-then-step loop (the step is scaler.step(optimizer) under the modulo)
# checked: ran, reproduces (a step pre-hook counting backward calls since the last clear: [1, 1], each optimizer.step() sees one micro-batch instead of the accumulated ones)

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 4))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
scaler = torch.amp.GradScaler("cpu", enabled=False)
accum_iter = 4
data_loader = [(torch.randn(2, 12), torch.randint(0, 4, (2,))) for _ in range(8)]

for data_iter_step, (samples, targets) in enumerate(data_loader):
    optimizer.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = F.cross_entropy(model(samples), targets)
    loss = loss / accum_iter
    scaler.scale(loss).backward()
    if (data_iter_step + 1) % accum_iter == 0:
        scaler.step(optimizer)
        scaler.update()
