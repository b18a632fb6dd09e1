# source: https://github.com/bytetriper/RAE/issues/67
# framework: torch
# family: D
# kind: misplaced-zero-grad
# pitfall: optimizer.zero_grad(set_to_none=True) is called inside the micro-batch loop, so every micro-batch clears the gradients of the previous ones and accumulation keeps only the last micro-batch
# expect: line 22 — zero_grad inside the micro-batch loop discards the gradients accumulated by earlier micro-batches
# checked: ran, reproduces (earlier micro-batches' gradients are discarded)

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16))
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4, weight_decay=0.0)
grad_accum_steps = 4
micro_batch_size = 8
loader = [torch.randn(grad_accum_steps * micro_batch_size, 16) for _ in range(2)]

for step, batch in enumerate(loader):
    model.train()
    for micro_step in range(grad_accum_steps):
        optimizer.zero_grad(set_to_none=True)
        x = batch[micro_step * micro_batch_size:(micro_step + 1) * micro_batch_size]
        loss = F.mse_loss(model(x), x)
        (loss / grad_accum_steps).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
