# source: https://discuss.pytorch.org/t/nan-gradient-for-torch-cos-torch-acos/9617
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: cos_theta is clamped to [-1, 1] and then fed to .acos(); d/dx acos(x) = -1/sqrt(1-x^2) is infinite at x = +-1 (x_i parallel to w_j), so backward produces inf/NaN even though the composed cos(2*acos(c)) is smooth.
# expect: line 17 — cos_theta.acos() evaluated at cos_theta == 1
# checked: ran (torch 2.13 CPU), reproduces: x.grad/w.grad contain nan (acos at cos_theta == 1)
import torch

# stubs: x (N x D) rows and w (D x M) columns; x[0] is parallel to w[:, 0] -> cos_theta[0, 0] == 1 exactly
x = torch.tensor([[1.0, 0.0], [0.6, 0.8]], requires_grad=True)
w = torch.tensor([[2.0, 0.0], [0.0, 1.0]], requires_grad=True)

xlen = x.pow(2).sum(1).pow(0.5).view(-1, 1)  # ||x||
wlen = w.pow(2).sum(0).pow(0.5).view(1, -1)  # ||w||
cos_theta = (x.mm(w) / xlen / wlen).clamp(-1, 1)
theta = cos_theta.acos()
cos_2_theta = torch.cos(2*theta)
y = cos_2_theta * xlen.view(-1, 1)

y.sum().backward()
print(x.grad, w.grad)
