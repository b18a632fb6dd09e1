# source: https://github.com/tientrandinh/Revisiting-Reverse-Distillation/issues/12
# framework: torch
# family: D
# kind: misplaced-zero-grad
# negative: the author's fix: both optimizers are cleared only after they step, inside the accumulation branch
# mimics: positive/1062_reverse_distillation_zero_grad_each_accum_step.py
# expect: no finding
# checked: ran, no error

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
        loss.backward()
        if (i + 1) % accumulation_steps == 0:
            optimizer_proj.step()
            optimizer_distill.step()
            optimizer_proj.zero_grad()
            optimizer_distill.zero_grad()
