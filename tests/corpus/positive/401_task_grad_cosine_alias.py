# source: synthetic
# family: D
# pitfall: gradient-conflict check between two tasks keeps w.grad after the first backward and reads it again after the second, without .clone()
# expect: line 19 — g_task1 aliases w.grad; the second backward accumulates into the same tensor in place, so g_task1 is g_task2 (holding the sum) and the cosine is always 1

import torch
import torch.nn.functional as F

shared = torch.nn.Linear(16, 16)
head1, head2 = torch.nn.Linear(16, 1), torch.nn.Linear(16, 1)
w = shared.weight

x = torch.randn(32, 16)
h = shared(x)
loss1 = head1(h).pow(2).mean()
loss2 = (head2(h) - 1).abs().mean()

loss1.backward(retain_graph=True)
g_task1 = w.grad
loss2.backward()
g_task2 = w.grad
cos = F.cosine_similarity(g_task1.flatten(), g_task2.flatten(), dim=0)
print("task gradient cosine:", cos.item())  # always 1.0: both names refer to one tensor
