# source: negative twin of a variant of 1126_ddpm_self_condition_inference_mode.py
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# negative: the teacher targets are computed under @torch.no_grad()
# mimics: positive/1126_v1_decorated_teacher_distill.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F


class Distiller:
    def __init__(self, teacher, student, T=2.0):
        self.teacher = teacher.eval()
        self.student = student
        self.optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
        self.T = T

    @torch.no_grad()
    def teacher_targets(self, x):
        return F.softmax(self.teacher(x) / self.T, dim=-1)

    def step(self, x):
        targets = self.teacher_targets(x)
        log_probs = F.log_softmax(self.student(x) / self.T, dim=-1)
        loss = -(targets * log_probs).sum(-1).mean() * self.T ** 2
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


d = Distiller(nn.Linear(8, 5), nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 5)))
print(d.step(torch.randn(4, 8)))
