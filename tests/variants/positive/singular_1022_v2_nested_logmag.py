# source: variant of 1022_where_log2_piecewise.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: log-compression of a spectrogram: torch.where(mag > 1e-5, torch.log(mag), ...) inside a loss function; silent bins are exactly 0 and the untaken log branch gives NaN
# expect: line 15 — torch.where(mag > 1e-5, torch.log(mag), torch.full_like(mag, -11.5)) on zero bins
# checked: ran (torch 2.13 CPU), reproduces (est.grad[0, 0] = nan (zero bin))

import torch


def log_mag_loss(est, ref):
    def logmag(x):
        mag = x.abs()
        return torch.where(mag > 1e-5, torch.log(mag), torch.full_like(mag, -11.5))
    return (logmag(est) - logmag(ref)).abs().mean()


est = torch.tensor([[0.0, 0.5, 2.0]], requires_grad=True)
ref = torch.tensor([[0.0, 0.4, 1.0]])
log_mag_loss(est, ref).backward()
print(est.grad)
