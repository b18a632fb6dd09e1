# source: variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# pitfall: the loop clears the gradients at the start of every iteration and skips the optimizer step with `if (it + 1) % accum_steps != 0: continue`; the step after the guard sees only the last micro-batch's gradient
# expect: line 19 — optimizer.zero_grad() on every iteration while the step is skipped by `continue` on all but every accum_steps-th iteration
# checked: ran, reproduces (a step pre-hook counting backward calls since the last clear: [1, 1], each optimizer.step() sees one micro-batch instead of the accumulated ones)

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(10, 16), nn.GELU(), nn.Linear(16, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
accum_steps = 4
batches = [torch.randn(8, 10) for _ in range(8)]

for it, x in enumerate(batches):
    optimizer.zero_grad(set_to_none=True)
    loss = F.mse_loss(model(x), x) / accum_steps
    loss.backward()
    if (it + 1) % accum_steps != 0:
        continue
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
