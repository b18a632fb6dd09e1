# source: variant of 1025_where_cos_of_inf.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: torch.atan2(imag, real) at silent bins: torch's atan2 backward gives 0 (not NaN) at (0, 0), unlike jax#1052's arctan2
# mimics: jax arctan2 singular-point cases
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def phase_loss(est, ref, n_fft=32):
    win = torch.hann_window(n_fft)
    S = torch.stft(est, n_fft, window=win, return_complex=True)
    R = torch.stft(ref, n_fft, window=win, return_complex=True)
    phase_est = torch.atan2(S.imag, S.real)
    phase_ref = torch.atan2(R.imag, R.real)
    return (1 - torch.cos(phase_est - phase_ref)).mean()


ref = torch.randn(1, 512)
ref[:, 128:384] = 0.0
est = ref.clone()
est.requires_grad_(True)
phase_loss(est, ref).backward()
print(torch.isnan(est.grad).any().item())
