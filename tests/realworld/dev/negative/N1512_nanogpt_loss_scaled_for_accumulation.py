# source: https://github.com/karpathy/nanoGPT/issues/605
# framework: torch
# family: D
# kind: misplaced-zero-grad
# negative: the micro-step losses are divided by gradient_accumulation_steps and backpropagated one by one; gradients are cleared once, after the optimizer step (the proposed change would be the bug)
# mimics: gradient accumulation with a loss rescaling inside the loop
# expect: no finding
# checked: ran, no error

from contextlib import nullcontext

import torch
import torch.nn as nn

model = nn.Linear(16, 16)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
scaler = torch.amp.GradScaler("cpu", enabled=False)
ctx = nullcontext()
gradient_accumulation_steps = 4
grad_clip = 1.0
max_iters = 2


def get_batch(split):
    x = torch.randn(8, 16)
    return x, x


X, Y = get_batch('train')
for iter_num in range(max_iters):
    for micro_step in range(gradient_accumulation_steps):
        with ctx:
            logits = model(X)
            loss = nn.functional.mse_loss(logits, Y)
            loss = loss / gradient_accumulation_steps  # scale the loss to account for gradient accumulation
        X, Y = get_batch('train')
        scaler.scale(loss).backward()
    if grad_clip != 0.0:
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
