# source: https://pytorch.org/tutorials/beginner/knowledge_distillation_tutorial.html
# family: A
# negative: knowledge distillation detaches only the teacher's logits; the KD and CE losses still flow through the student
# mimics: .detach() on logits used in a loss
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

teacher = nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 10))
student = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))
opt = torch.optim.Adam(student.parameters(), lr=1e-3)
T, alpha = 4.0, 0.7

for step in range(100):
    x, y = torch.randn(64, 32), torch.randint(0, 10, (64,))
    t_logits = teacher(x).detach()
    s_logits = student(x)
    kd = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
    loss = alpha * kd + (1 - alpha) * F.cross_entropy(s_logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
