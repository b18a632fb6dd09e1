# source: synthetic
# family: F
# pitfall: self-training: a teacher produces pseudo-labels and confidences in an @torch.inference_mode() helper; they are used as targets and weights of the student loss
# expect: line 15 — the pseudo-labels/confidences are inference tensors; cross_entropy (target) and the weighting product save them for backward, so training raises "Inference tensors cannot be saved for backward"

import torch
import torch.nn as nn
import torch.nn.functional as F

teacher = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).eval()
student = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
opt = torch.optim.Adam(student.parameters(), lr=1e-3)


@torch.inference_mode()
def pseudo_label(x):
    probs = teacher(x).softmax(-1)
    conf, labels = probs.max(-1)
    return labels, conf


for step in range(100):
    x_unlabeled = torch.randn(128, 64)
    targets, conf = pseudo_label(x_unlabeled)
    per_sample = F.cross_entropy(student(x_unlabeled), targets, reduction="none")
    loss = (conf * per_sample).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
