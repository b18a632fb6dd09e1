# source: https://blog.youkuaiyun.com/qq_46111795/article/details/126987909
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: hand-written attention: V1 is saved by bmm(Q, V1.permute(...)) (for dL/dQ), then `V1[:, 0, 1] = 0` writes into it before the second bmm and backward.
# expect: line 19 — `V1[:, 0, 1] = 0` index assignment into V1 after bmm saved its permuted view
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2, 3, 3]], which is output 0 of AsStrided, is at version 1; expected version 0 instead -- `a /= math.sqrt(3)` and `a[:, 1, 2:] = -1e6` in the same file are harmless: nothing saved a)
import torch
import torch.nn as nn
import math
import torch.nn.functional as F

if __name__ == '__main__':
    Q = torch.randn(2, 2, 3, requires_grad=True)
    V = torch.randn(2, 3, 3, requires_grad=True)
    V1 = V + 1
    a = torch.bmm(Q, V1.permute(0, 2, 1))
    a /= math.sqrt(3)
    V1[:, 0, 1] = 0
    a[:, 1, 2:] = -1e6
    a = F.softmax(a, dim=-1)
    res = torch.bmm(a, V1)
    l = res.sum().backward()
    print(V.grad)
