# source: https://github.com/pytorch/pytorch/issues/23395
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: torch.where(x == 0., y, z) selects y at x == 0, but the unselected branch z = x.sqrt() + 1 has an infinite derivative there; where's backward sends a 0 cotangent into it and 0 * inf leaks inf/NaN into x.grad.
# expect: line 19 — torch.where(x == 0., y, z) whose unselected branch is x.sqrt()
# checked: ran (torch 2.13 CPU), reproduces: dwdx = [0.125, nan] (issue reported inf on torch 1.x)
import torch

x = torch.tensor([16., 0.], requires_grad=True)
y = x/2  # tensor([8., 0.], grad_fn=<DivBackward0>)
z = x.sqrt() + 1  # tensor([5., 1.], grad_fn=<SqrtBackward>)

# Calculate dy/dx, dz/dx
dydx = torch.autograd.grad(y.sum(), x, retain_graph=True)[0]  # tensor([0.5000, 0.5000])
dzdx = torch.autograd.grad(z.sum(), x, retain_graph=True)[0]  # tensor([0.1250,    inf])

# Define w = [w0, w1] == [y0, z1]
w = torch.where(x == 0., y, z)  # tensor([5., 0.], grad_fn=<SWhereBackward>)
expected_dw_dx = torch.where(x == 0., dydx, dzdx)  # tensor([0.1250, 0.5000])
dwdx = torch.autograd.grad(w.sum(), x, retain_graph=True)[0]  # is actually tensor([0.1250, inf])
print("`torch.where` communicates gradients correctly:", torch.equal(expected_dw_dx, dwdx))
print(dwdx)
