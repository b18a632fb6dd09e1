# source: https://arxiv.org/abs/1803.02999
# family: C
# negative: first-order MAML deliberately omits create_graph: the inner gradient is treated as a constant and the outer loss still reaches the meta-parameters through w - lr * g
# mimics: torch.autograd.grad without create_graph inside a meta-learning loss
# expect: no finding

import torch
import torch.nn.functional as F

w = torch.randn(10, 1, requires_grad=True)
meta_opt = torch.optim.Adam([w], lr=1e-3)
inner_lr = 0.01

for it in range(100):
    meta_opt.zero_grad()
    for task in range(4):
        xs, ys = torch.randn(5, 10), torch.randn(5, 1)
        xq, yq = torch.randn(15, 10), torch.randn(15, 1)
        (g,) = torch.autograd.grad(F.mse_loss(xs @ w, ys), w)  # first-order approximation
        w_fast = w - inner_lr * g
        outer = F.mse_loss(xq @ w_fast, yq) / 4
        outer.backward()
    meta_opt.step()
