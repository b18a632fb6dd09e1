# source: variant of 1209_torch_stoi_tob_sqrt_of_silent_band.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: the merged fix: EPS inside the root
# mimics: 1209_v1_module_sqrt_matmul.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
from torch import nn


class BandEnvelopeLoss(nn.Module):
    def __init__(self, n_fft=64, n_bands=6):
        super().__init__()
        self.n_fft = n_fft
        obm = torch.zeros(n_bands, n_fft // 2 + 1)
        for i in range(n_bands):
            obm[i, 2 * i + 1:2 * i + 4] = 1.0
        self.register_buffer("obm", obm)
        self.register_buffer("win", torch.hann_window(n_fft))

    def envelope(self, x):
        spec = torch.stft(x, self.n_fft, hop_length=self.n_fft // 2, window=self.win, center=False, return_complex=True)
        power = spec.real ** 2 + spec.imag ** 2
        return torch.sqrt(self.obm @ power + 1e-8)

    def forward(self, est, ref):
        return (self.envelope(est) - self.envelope(ref)).abs().mean()


loss_fn = BandEnvelopeLoss()
clean = torch.randn(2, 2048)
clean[:, 512:1536] = 0.0
est = (clean + 0.1 * torch.randn(2, 2048))
est[:, 512:1536] = 0.0
est.requires_grad_(True)
loss_fn(est, clean).backward()
print(torch.isnan(est.grad).any().item())
