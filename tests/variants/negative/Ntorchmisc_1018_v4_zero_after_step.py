# source: negative twin of a variant of 1018_rae_zero_grad_per_microbatch.py
# framework: torch
# family: D
# kind: misplaced-zero-grad
# negative: nanoGPT's order: optimizer.zero_grad(set_to_none=True) after scaler.step/update, outside the micro-step loop
# mimics: positive/1018_v4_scaler_data_iter.py
# expect: no finding
# checked: ran; the step pre-hook counts [4, 4, 4] backward calls per step

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
        X, Y = get_batch(data_iter)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(X)
            loss = F.cross_entropy(logits.view(-1, 32).float(), Y.reshape(-1)) / gradient_accumulation_steps
        scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
