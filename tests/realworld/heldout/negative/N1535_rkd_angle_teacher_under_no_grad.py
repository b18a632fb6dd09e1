# source: https://github.com/lenscloth/RKD/issues/16
# framework: torch
# family: A
# kind: loss-under-no-grad
# negative: the relational distillation loss computes the teacher's angle matrix inside torch.no_grad() and the student's outside it; the author's answer: the no_grad is not even needed (the teacher is already run under no_grad), and the student's part, which the loss trains, is built with grad enabled
# mimics: part of a loss computed under torch.no_grad()
# expect: no finding
# checked: ran, no error (the student receives a gradient); the RkdAngle verbatim except reduction='elementwise_mean' -> 'mean' (the old alias is gone), with a student and teacher embedding network and a training step

import torch
import torch.nn as nn
import torch.nn.functional as F


class RKdAngle(nn.Module):
    def forward(self, student, teacher):
        # N x C
        # N x N x C

        with torch.no_grad():
            td = (teacher.unsqueeze(0) - teacher.unsqueeze(1))
            norm_td = F.normalize(td, p=2, dim=2)
            t_angle = torch.bmm(norm_td, norm_td.transpose(1, 2)).view(-1)

        sd = (student.unsqueeze(0) - student.unsqueeze(1))
        norm_sd = F.normalize(sd, p=2, dim=2)
        s_angle = torch.bmm(norm_sd, norm_sd.transpose(1, 2)).view(-1)

        loss = F.smooth_l1_loss(s_angle, t_angle, reduction='mean')
        return loss


student, teacher = nn.Linear(16, 8), nn.Linear(16, 8)
optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
dist_criterion = RKdAngle()
images = torch.randn(6, 16)
with torch.no_grad():
    t_e = teacher(images)
loss = dist_criterion(student(images), t_e)
optimizer.zero_grad()
loss.backward()
optimizer.step()
