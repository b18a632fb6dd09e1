# source: https://github.com/banctilrobitaille/torch-vectorized/issues/7
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: the closed-form 3x3 symmetric eigenvalue solver takes torch.acos(r) and only afterwards overwrites phi where r <= -1 or r >= 1; for matrices with a repeated eigenvalue r reaches the domain boundary, where acos's derivative is infinite, so training fails with "Function 'AcosBackward' returned nan values"
# expect: line 32 — torch.acos(r) is evaluated (and differentiated) at r = +-1; the maintainer's answer is to clamp r to [-1 + eps, 1 - eps] before acos
# checked: ran, reproduces (NaN in the input gradient for a matrix with a repeated eigenvalue); torchvectorized/vlinalg.py _compute_eigenvalues verbatim at 3a982d7, applied to a batch of flattened 3x3 matrices
from math import pi

import torch

def _compute_eigenvalues(input: torch.Tensor):
    b, c, d, h, w = input.size()
    a11 = input[:, 0, :, :, :].double()
    a12 = input[:, 1, :, :, :].double()
    a13 = input[:, 2, :, :, :].double()
    a22 = input[:, 4, :, :, :].double()
    a23 = input[:, 5, :, :, :].double()
    a33 = input[:, 8, :, :, :].double()
    eig_vals = torch.zeros(b, 3, d, h, w).to(input.device).double()

    nd = torch.pow(a12, 2) + torch.pow(a13, 2) + torch.pow(a23, 2)

    if torch.any(nd != 0):
        q = (a11 + a22 + a33) / 3.0
        p = torch.pow((a11 - q), 2) + torch.pow((a22 - q), 2) + torch.pow((a33 - q), 2) + 2.0 * nd
        p = torch.sqrt(p / 6.0)

        r = torch.pow((1.0 / p), 3) * ((a11 - q) * ((a22 - q) * (a33 - q) - a23 * a23) - a12 * (
                a12 * (a33 - q) - a13 * a23) + a13 * (a12 * a23 - a13 * (a22 - q))) / 2.0

        phi = torch.acos(r) / 3.0
        phi[r <= -1] = pi / 3
        phi[r >= 1] = 0

        eig_vals[:, 0, :, :, :] = q + 2 * p * torch.cos(phi)
        eig_vals[:, 2, :, :, :] = q + 2 * p * torch.cos(phi + pi * (2.0 / 3.0))
        eig_vals[:, 1, :, :, :] = 3 * q - eig_vals[:, 0, :, :, :] - eig_vals[:, 2, :, :, :]

    if torch.any(nd == 0):
        diag_matrix_index = torch.where(nd == 0)
        eig_vals[:, 0, :, :, :][diag_matrix_index] = a11[diag_matrix_index]
        eig_vals[:, 1, :, :, :][diag_matrix_index] = a22[diag_matrix_index]
        eig_vals[:, 2, :, :, :][diag_matrix_index] = a33[diag_matrix_index]

    return eig_vals


# symmetric matrices flattened to 9 channels, shape (b, 9, d, h, w); the second one has eigenvalues 3, 1, 1
matrices = torch.tensor([[4., 1., 0.5, 1., 3., 0.2, 0.5, 0.2, 1.],
                         [2., 1., 0., 1., 2., 0., 0., 0., 1.]]).t().reshape(1, 9, 1, 1, 2)
matrices.requires_grad_(True)
eig_vals = _compute_eigenvalues(matrices)
eig_vals.sum().backward()
print('NaN in gradient:', torch.isnan(matrices.grad).any().item())
