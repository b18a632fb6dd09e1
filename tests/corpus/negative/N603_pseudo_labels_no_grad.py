# source: https://pytorch.org/docs/stable/generated/torch.inference_mode.html
# family: F
# negative: teacher pseudo-labels are produced under torch.no_grad() (normal tensors without history), then used as targets/weights of the student loss
# mimics: teacher outputs computed without autograd and fed into a training loss
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

teacher = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).eval()
student = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
opt = torch.optim.Adam(student.parameters(), lr=1e-3)


@torch.no_grad()
def pseudo_label(x):
    conf, labels = teacher(x).softmax(-1).max(-1)
    return labels, conf


for step in range(100):
    x_unlabeled = torch.randn(128, 64)
    targets, conf = pseudo_label(x_unlabeled)
    per_sample = F.cross_entropy(student(x_unlabeled), targets, reduction="none")
    loss = (conf * per_sample).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
