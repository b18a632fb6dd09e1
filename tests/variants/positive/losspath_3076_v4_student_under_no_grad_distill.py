# source: variant of 3076_loss_input_recomputed_under_no_grad.py
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: a knowledge-distillation step runs teacher and student on the augmented view inside the same torch.no_grad() block; the KD term computed from the student's logits has no graph, so only the hard-label term trains the student
# expect: line 23 — s_logits_aug = student(x_aug) inside torch.no_grad() has no graph; the KD term built from it trains nothing
# checked: ran, reproduces (kd.requires_grad is False while ce.requires_grad is True; backward runs silently)

import torch
import torch.nn as nn
import torch.nn.functional as F

teacher = nn.Linear(10, 5).requires_grad_(False)
student = nn.Linear(10, 5)
optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
T = 4.0

for step in range(2):
    x, x_aug, y = torch.randn(8, 10), torch.randn(8, 10), torch.randint(0, 5, (8,))
    ce = F.cross_entropy(student(x), y)
    with torch.no_grad():
        t_logits = teacher(x_aug)
        s_logits_aug = student(x_aug)
    kd = F.kl_div(F.log_softmax(s_logits_aug / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
    loss = ce + kd
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(kd.requires_grad, ce.requires_grad)
