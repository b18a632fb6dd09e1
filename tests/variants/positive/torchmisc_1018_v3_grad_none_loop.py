# source: variant of 1018_rae_zero_grad_per_microbatch.py
# framework: torch
# family: D
# kind: misplaced-zero-grad
# pitfall: the gradients are cleared by hand (p.grad = None for every parameter, the set_to_none spelling) at the start of each micro-batch, so the step after the micro-batch loop uses only the last micro-batch's gradient
# expect: line 22 — setting every p.grad to None inside the micro-batch loop discards the gradients accumulated by earlier micro-batches
# checked: ran, reproduces (a step pre-hook counting backward calls since the last clear: [1, 1] instead of [4, 4])

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16))
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
grad_accum_steps = 4
micro_batch_size = 8
loader = [torch.randn(grad_accum_steps * micro_batch_size, 16) for _ in range(2)]

for step, batch in enumerate(loader):
    for micro_step in range(grad_accum_steps):
        for p in model.parameters():
            p.grad = None
        x = batch[micro_step * micro_batch_size:(micro_step + 1) * micro_batch_size]
        loss = F.mse_loss(model(x), x)
        (loss / grad_accum_steps).backward()
    optimizer.step()
