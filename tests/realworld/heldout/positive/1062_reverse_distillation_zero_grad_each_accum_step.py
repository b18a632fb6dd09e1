# source: https://github.com/tientrandinh/Revisiting-Reverse-Distillation/issues/12
# framework: torch
# family: D
# kind: misplaced-zero-grad
# pitfall: with gradient accumulation, both optimizers are cleared before every backward, so at each (i + 1) % accumulation_steps step only the last batch's gradient is applied
# expect: line 24 — zero_grad() runs on every iteration, before each backward, discarding the gradients accumulated since the last step
# checked: ran, reproduces (accumulated gradients are discarded before the step)

import torch
import torch.nn as nn

proj_layer = nn.Linear(16, 16)
student = nn.Linear(16, 16)
optimizer_proj = torch.optim.Adam(proj_layer.parameters(), lr=0.001, betas=(0.5, 0.999))
optimizer_distill = torch.optim.Adam(student.parameters(), lr=0.005, betas=(0.5, 0.999))
accumulation_steps = 2
train_dataloader = [torch.randn(4, 16) for _ in range(4)]

for epoch in range(1):
    for i, img in enumerate(train_dataloader):
        feature_space = proj_layer(img)
        outputs = student(feature_space)
        loss = nn.functional.mse_loss(outputs, img)
        optimizer_proj.zero_grad()
        optimizer_distill.zero_grad()
        loss.backward()
        if (i + 1) % accumulation_steps == 0:
            optimizer_proj.step()
            optimizer_distill.step()
