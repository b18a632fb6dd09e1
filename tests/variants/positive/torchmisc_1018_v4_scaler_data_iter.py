# source: variant of 1018_rae_zero_grad_per_microbatch.py
# framework: torch
# family: D
# kind: misplaced-zero-grad
# pitfall: a nanoGPT-style loop draws micro-batches with next(data_iter) inside `for micro_step in range(gradient_accumulation_steps)`, clears the optimizer there and steps through a GradScaler after the loop; only the last micro-batch's gradient is applied
# expect: line 27 — optimizer.zero_grad(set_to_none=True) inside the micro-step loop discards the gradients of the earlier micro-steps
# checked: ran, reproduces (a step pre-hook counting backward calls since the last clear: [1, 1, 1] instead of [4, 4, 4])

import torch
import torch.nn as nn
import torch.nn.functional as F


def get_batch(data_iter):
    x = next(data_iter)
    return x[:, :-1], x[:, 1:]


model = nn.Sequential(nn.Embedding(32, 16), nn.Linear(16, 32))
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
scaler = torch.amp.GradScaler("cpu", enabled=False)
gradient_accumulation_steps = 4
data_iter = iter([torch.randint(0, 32, (2, 9)) for _ in range(12)])

for iter_num in range(3):
    for micro_step in range(gradient_accumulation_steps):
        optimizer.zero_grad(set_to_none=True)
        X, Y = get_batch(data_iter)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(X)
            loss = F.cross_entropy(logits.view(-1, 32).float(), Y.reshape(-1)) / gradient_accumulation_steps
        scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
