# source: variant of 1209_torch_stoi_tob_sqrt_of_silent_band.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: band envelope computed in a helper as (obm @ spec.abs().pow(2)).sqrt() on a magnitude from the real view; silent frames give band energy 0 and NaN gradients
# expect: line 15 — (obm @ mag.pow(2)).sqrt() at a silent band
# checked: ran (torch 2.13 CPU), reproduces (NaN in est.grad with a silent stretch)

import torch


def third_octave_envelope(x, obm, win, n_fft=64):
    spec = torch.view_as_real(torch.stft(x, n_fft, hop_length=n_fft // 2, window=win, center=False, return_complex=True))
    mag2 = spec.pow(2).sum(-1)
    return torch.matmul(obm, mag2).sqrt()


n_fft = 64
obm = torch.zeros(6, n_fft // 2 + 1)
for i in range(6):
    obm[i, 2 * i + 1:2 * i + 4] = 1.0
win = torch.hann_window(n_fft)
clean = torch.randn(2, 2048)
clean[:, 512:1536] = 0.0
est = clean + 0.1 * torch.randn(2, 2048)
est[:, 512:1536] = 0.0
est.requires_grad_(True)
y_tob = third_octave_envelope(est, obm, win)
x_tob = third_octave_envelope(clean, obm, win)
loss = torch.nn.functional.mse_loss(y_tob, x_tob)
loss.backward()
print(torch.isnan(est.grad).any().item())
