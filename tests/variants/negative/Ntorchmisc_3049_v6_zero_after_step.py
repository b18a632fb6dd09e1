# source: negative twin of a variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# negative: the gradients are cleared after the optimizer step, past the `continue` guard
# mimics: positive/3049_v6_continue_guard.py
# expect: no finding
# checked: ran; the step pre-hook counts [4, 4] backward calls per step

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(10, 16), nn.GELU(), nn.Linear(16, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
accum_steps = 4
batches = [torch.randn(8, 10) for _ in range(8)]

for it, x in enumerate(batches):
    loss = F.mse_loss(model(x), x) / accum_steps
    loss.backward()
    if (it + 1) % accum_steps != 0:
        continue
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
