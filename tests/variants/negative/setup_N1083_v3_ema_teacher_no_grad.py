# source: variant of 1083_convirt_text_head_under_no_grad.py
# framework: torch
# family: D
# kind: no-grad-in-forward
# pitfall: none — forward runs an EMA teacher under no_grad; the teacher is updated by EMA, the optimizer holds only the student
# checked: ran, correct (student gets gradients; teacher not in optimizer)
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfDistill(nn.Module):
    def __init__(self):
        super().__init__()
        self.student = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 4))
        self.teacher = copy.deepcopy(self.student)
        for p in self.teacher.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        with torch.no_grad():
            t = self.teacher(x)
        s = self.student(x)
        return F.mse_loss(s, t)

    @torch.no_grad()
    def ema_update(self, m=0.99):
        for ps, pt in zip(self.student.parameters(), self.teacher.parameters()):
            pt.mul_(m).add_(ps.detach(), alpha=1 - m)


if __name__ == "__main__":
    model = SelfDistill()
    opt = torch.optim.SGD(model.student.parameters(), lr=0.1)
    opt.zero_grad()
    model(torch.randn(4, 8) + 1).backward()
    opt.step()
    model.ema_update()
    print("student grad set:", model.student[0].weight.grad is not None)
