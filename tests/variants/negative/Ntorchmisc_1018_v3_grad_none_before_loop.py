# source: negative twin of a variant of 1018_rae_zero_grad_per_microbatch.py
# framework: torch
# family: D
# kind: misplaced-zero-grad
# negative: every p.grad is set to None once per step, before the micro-batch loop
# mimics: positive/1018_v3_grad_none_loop.py
# expect: no finding
# checked: ran; the step pre-hook counts [4, 4] backward calls per step

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16))
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
grad_accum_steps = 4
micro_batch_size = 8
loader = [torch.randn(grad_accum_steps * micro_batch_size, 16) for _ in range(2)]

for step, batch in enumerate(loader):
    for p in model.parameters():
        p.grad = None
    for micro_step in range(grad_accum_steps):
        x = batch[micro_step * micro_batch_size:(micro_step + 1) * micro_batch_size]
        loss = F.mse_loss(model(x), x)
        (loss / grad_accum_steps).backward()
    optimizer.step()
