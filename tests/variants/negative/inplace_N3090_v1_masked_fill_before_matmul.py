# source: variant of 3090_bmm_attention_value_index_assign.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — V masked before the matmul uses it
# checked: ran, no error (exit 0)
import math
import torch
import torch.nn.functional as F

Q = torch.randn(2, 4, 8, requires_grad=True)
W = torch.randn(2, 4, 8, requires_grad=True)
V = W * 2
pad = torch.zeros(2, 4, 1, dtype=torch.bool)
pad[:, -1] = True
V.masked_fill_(pad, 0.0)
scores = Q @ V.transpose(-2, -1) / math.sqrt(8)
out = F.softmax(scores, dim=-1) @ V
out.sum().backward()
