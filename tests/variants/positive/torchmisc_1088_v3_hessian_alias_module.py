# source: variant of 1088_functional_jacobian_without_create_graph.py
# framework: torch
# family: C
# kind: grad-without-create-graph
# pitfall: an energy-based curvature loss takes the Hessian of the energy with torch.autograd.functional (imported as AF) and minimises its trace w.r.t. the input; without create_graph=True the Hessian is a constant and backward() raises "element 0 of tensors does not require grad"
# expect: line 18 — AF.hessian without create_graph=True returns a constant; its trace cannot be differentiated w.r.t. x
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)

import torch
import torch.autograd.functional as AF


def energy(x):
    return (x ** 4).sum() - (x ** 2).sum()


def curvature(x):
    H = AF.hessian(energy, x)
    return torch.trace(H)


x = torch.randn(3, requires_grad=True)
opt = torch.optim.SGD([x], lr=0.01)
opt.zero_grad()
curvature(x).backward()
opt.step()
