# source: variant of 3090_bmm_attention_value_index_assign.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: hand-written attention: V is saved by the matmul Q @ V.transpose(-2, -1) and then masked_fill_'d in place
# expect: line 18 — V.masked_fill_(...) after Q @ V.transpose(...) saved V
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2, 8, 4]], which is output 0 of AsStrided, is at version 1; expected v)
import math
import torch
import torch.nn.functional as F

Q = torch.randn(2, 4, 8, requires_grad=True)
W = torch.randn(2, 4, 8, requires_grad=True)
V = W * 2
scores = Q @ V.transpose(-2, -1) / math.sqrt(8)
pad = torch.zeros(2, 4, 1, dtype=torch.bool)
pad[:, -1] = True
V.masked_fill_(pad, 0.0)
out = F.softmax(scores, dim=-1) @ V
out.sum().backward()
