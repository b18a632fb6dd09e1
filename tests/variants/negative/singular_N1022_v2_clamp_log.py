# source: variant of 1022_where_log2_piecewise.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: log of the clamped magnitude (the usual log-mag form)
# mimics: 1022_v2_nested_logmag.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def log_mag_loss(est, ref):
    def logmag(x):
        mag = x.abs()
        return torch.log(mag.clamp(min=1e-5))
    return (logmag(est) - logmag(ref)).abs().mean()


est = torch.tensor([[0.0, 0.5, 2.0]], requires_grad=True)
ref = torch.tensor([[0.0, 0.4, 1.0]])
log_mag_loss(est, ref).backward()
print(est.grad)
