# source: variant of 1126_ddpm_self_condition_inference_mode.py
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# pitfall: a distillation trainer computes the teacher's targets in a method decorated with @torch.inference_mode(); the targets are inference tensors, and the student's loss saves them for backward, so loss.backward() fails ("Inference tensors cannot be saved for backward"); torch.no_grad() is what was meant
# expect: line 21 — @torch.inference_mode() makes the teacher targets inference tensors that the training loss then saves for backward; use @torch.no_grad()
# checked: ran, reproduces (RuntimeError: Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in computation tracked by autograd.)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Distiller:
    def __init__(self, teacher, student, T=2.0):
        self.teacher = teacher.eval()
        self.student = student
        self.optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
        self.T = T

    @torch.inference_mode()
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
