# source: https://github.com/pytorch/functorch/issues/257
# framework: torch
# family: F
# kind: func-transform-data-dependent
# pitfall: a per-sample Sinkhorn loss (POT's ot.sinkhorn2, which contains data-dependent convergence checks) is wrapped in vmap to replace a slow Python loop; vmap cannot trace the tensor-valued control flow inside it
# expect: line 23 — vmap over a function with data-dependent Python control flow (ot.sinkhorn2's iteration checks) raises "attempting to use a Tensor in some data-dependent control flow"
# checked: parse only (needs POT)

import ot
import torch
from torch.func import vmap

P_batch = torch.softmax(torch.randn(8, 16), dim=1)
Q_batch = torch.softmax(torch.randn(8, 16), dim=1)
C = torch.cdist(torch.arange(16.)[:, None], torch.arange(16.)[:, None]) ** 2
epsilon = 0.1


def sample_loss(p, q):
    return ot.sinkhorn2(p.view(-1, 1), q.view(-1, 1), C, epsilon)


loss = vmap(sample_loss)(P_batch, Q_batch).sum()
