# source: https://blog.youkuaiyun.com/qq_46111795/article/details/126987909
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the blog's second run: same code but Q does not require grad, so bmm(Q, V1^T) does not need (and does not save) V1; the same index assignments are then harmless and backward succeeds.
# expect: no finding
# checked: ran, clean (prints V.grad)
import torch
import torch.nn as nn
import math
import torch.nn.functional as F

if __name__ == '__main__':
    Q = torch.randn(2, 2, 3, requires_grad=False)
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
