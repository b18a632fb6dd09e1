# source: https://github.com/jongwook/onsets-and-frames/issues/24
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: gradient clipping is called after loss.backward() and optimizer.step(), so the update has already used the unclipped gradients and the clipping has no effect on training
# expect: line 28 — clip_grad_norm_ after optimizer.step() clips gradients that were already applied (and are cleared before the next step)
# checked: ran, reproduces (the step uses the unclipped gradient)

import torch
from torch.nn.utils import clip_grad_norm_

model = torch.nn.Linear(229, 88)
optimizer = torch.optim.Adam(model.parameters(), 0.0006)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10000, gamma=0.98)
clip_gradient_norm = 3

loader = [(torch.randn(8, 229) * 100, torch.rand(8, 88).round()) for _ in range(2)]
for i, (audio, label) in enumerate(loader):
    predictions = model(audio)
    losses = {'loss/frame': torch.nn.functional.binary_cross_entropy_with_logits(predictions, label)}
    loss = sum(losses.values())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()

    if clip_gradient_norm:
        clip_grad_norm_(model.parameters(), clip_gradient_norm)
