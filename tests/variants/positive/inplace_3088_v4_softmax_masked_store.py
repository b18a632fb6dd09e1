# source: variant of 3088_resample_loss_logits_iadd_after_sigmoid.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: invalid actions are zeroed by a masked store into the softmax probabilities, which SoftmaxBackward saved
# expect: line 17 — probs[~valid] = 0.0 on the softmax output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [5, 4]], which is output 0 of Softmax, is at version 1; expected versio)
import torch
import torch.nn as nn
import torch.nn.functional as F

policy = nn.Linear(6, 4)
obs = torch.randn(5, 6)
valid = torch.rand(5, 4) > 0.3
valid[:, 0] = True
probs = F.softmax(policy(obs), dim=-1)
probs[~valid] = 0.0
probs = probs / probs.sum(-1, keepdim=True)
loss = -(probs * torch.randn(5, 4)).sum()
loss.backward()
