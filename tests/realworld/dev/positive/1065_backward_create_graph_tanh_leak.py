# source: https://github.com/pytorch/pytorch/issues/7343
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: y.backward(..., create_graph=True) stores a gradient with history in x.grad; x -> x.grad -> TanhBackwardBackward -> x forms a reference cycle, so the memory is not released after del x, y
# expect: line 14 — .backward(create_graph=True) writes graph-carrying gradients into .grad (a reference cycle); use torch.autograd.grad(..., create_graph=True) or reset .grad to None
# checked: ran (the leak is measured on CUDA memory in the thread; on CPU x.grad is shown to carry a grad_fn)

import torch
import gc

x = torch.randn(1, requires_grad=True)
y = x.tanh()
y.backward(torch.ones_like(y), create_graph=True)
print(x.grad.grad_fn)
del x, y
gc.collect()
