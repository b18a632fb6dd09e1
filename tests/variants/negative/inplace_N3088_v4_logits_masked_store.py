# source: variant of 3088_resample_loss_logits_iadd_after_sigmoid.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — mask applied to the logits before the softmax
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn
import torch.nn.functional as F

policy = nn.Linear(6, 4)
obs = torch.randn(5, 6)
valid = torch.rand(5, 4) > 0.3
valid[:, 0] = True
logits = policy(obs)
logits[~valid] = -1e9
probs = F.softmax(logits, dim=-1)
loss = -(probs * torch.randn(5, 4)).sum()
loss.backward()
