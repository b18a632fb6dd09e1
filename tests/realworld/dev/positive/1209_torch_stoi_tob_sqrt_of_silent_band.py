# source: https://github.com/mpariente/pytorch_stoi/issues/7
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: the one-third-octave band envelope is computed as matmul(OBM, norm(spec) ** 2).pow(0.5); in a silent stretch of the clean target the band energy is exactly 0, and the square root's infinite derivative times the zero derivative of norm(.) ** 2 makes the gradient NaN
# expect: line 69 — .pow(0.5) of the estimate's band energy (and the target's on the line above) that is 0 on silent frames gives NaN gradients; the reporter's fix (merged as #8) adds EPS inside: matmul(self.OBM, torch.norm(x_spec, 2, -1) ** 2 + EPS).pow(0.5)
# checked: ran, reproduces (the estimate's gradient contains NaN when the target has a silent stretch); torch_stoi/stoi.py before 0242f25, reduced: pystoi constants and thirdoct inlined, no torchaudio resampling, no VAD, not the extended variant

import numpy as np
import torch
from torch import nn
from torch.nn.functional import unfold

FS, N_FRAME, NUMBAND, MINFREQ, N, BETA, DYN_RANGE = 10000, 256, 15, 150, 30, -15., 40
EPS = 1e-8


def thirdoct(fs, nfft, num_bands, min_freq):
    """ Returns the 1/3 octave band matrix and its center frequencies (pystoi.utils) """
    f = np.linspace(0, fs, nfft + 1)
    f = f[:int(nfft / 2) + 1]
    k = np.array(range(num_bands)).astype(float)
    cf = np.power(2. ** (1. / 3), k) * min_freq
    freq_low = min_freq * np.power(2., (2 * k - 1) / 6)
    freq_high = min_freq * np.power(2., (2 * k + 1) / 6)
    obm = np.zeros((num_bands, len(f)))
    for i in range(len(cf)):
        f_bin = np.argmin(np.square(f - freq_low[i]))
        freq_low[i] = f[f_bin]
        fl_ii = f_bin
        f_bin = np.argmin(np.square(f - freq_high[i]))
        freq_high[i] = f[f_bin]
        fh_ii = f_bin
        obm[i, fl_ii:fh_ii] = 1
    return obm, cf


class NegSTOILoss(nn.Module):
    def __init__(self,
                 sample_rate: int,
                 use_vad: bool = False,
                 extended: bool = False,
                 do_resample: bool = False):
        super().__init__()
        # Independant from FS
        self.sample_rate = sample_rate
        self.use_vad = use_vad
        self.extended = extended
        self.intel_frames = N
        self.beta = BETA
        self.dyn_range = DYN_RANGE
        self.do_resample = do_resample

        self.win_len = (N_FRAME * sample_rate) // FS
        self.nfft = 2 * self.win_len
        win = torch.from_numpy(np.hanning(self.win_len + 2)[1:-1]).float()
        self.win = nn.Parameter(win, requires_grad=False)
        obm_mat = thirdoct(sample_rate, self.nfft, NUMBAND, MINFREQ)[0]
        self.OBM = nn.Parameter(torch.from_numpy(obm_mat).float(),
                                requires_grad=False)

    def forward(self, est_targets: torch.Tensor,
                targets: torch.Tensor,) -> torch.Tensor:
        # Here comes the real computation, take STFT
        x_spec = self.stft(targets, self.win, self.nfft, overlap=2)
        y_spec = self.stft(est_targets, self.win, self.nfft, overlap=2)
        # Apply OB matrix to the spectrograms as in Eq. (1)
        x_tob = torch.matmul(self.OBM, torch.norm(x_spec, 2, -1) ** 2).pow(0.5)
        y_tob = torch.matmul(self.OBM, torch.norm(y_spec, 2, -1) ** 2).pow(0.5)
        # Perform N-frame segmentation --> (batch, 15, N, n_chunks)
        batch = targets.shape[0]
        x_seg = unfold(x_tob.unsqueeze(2),
                       kernel_size=(1, self.intel_frames),
                       stride=(1, 1)).view(batch, x_tob.shape[1], N, -1)
        y_seg = unfold(y_tob.unsqueeze(2),
                       kernel_size=(1, self.intel_frames),
                       stride=(1, 1)).view(batch, y_tob.shape[1], N, -1)
        mask_f = None

        # Find normalization constants and normalize
        norm_const = (masked_norm(x_seg, dim=2, keepdim=True, mask=mask_f) /
                      (masked_norm(y_seg, dim=2, keepdim=True, mask=mask_f)
                       + EPS))
        y_seg_normed = y_seg * norm_const
        # Clip as described in [1]
        clip_val = 10 ** (-self.beta / 20)
        y_prim = torch.min(y_seg_normed, x_seg * (1 + clip_val))
        # Mean/var normalize vectors
        y_prim = meanvar_norm(y_prim, dim=2, mask=mask_f)
        x_seg = meanvar_norm(x_seg, dim=2, mask=mask_f)
        # Matrix with entries summing to sum of correlations of vectors
        corr_comp = y_prim * x_seg
        # J, M as in [1], eq.6
        correction = x_seg.shape[1] * x_seg.shape[-1]

        # Compute average (E)STOI w. or w/o VAD.
        sum_over = list(range(1, x_seg.ndim))  # Keep batch dim
        # Return -(E)STOI to optimize for
        return - torch.sum(corr_comp, dim=sum_over) / correction

    @staticmethod
    def stft(x, win, fft_size, overlap=4):
        win_len = win.shape[0]
        hop = int(win_len / overlap)
        # Last frame not taken because NFFT size is larger, torch bug IMO.
        x_padded = torch.nn.functional.pad(x, pad=[0, hop])
        return torch.view_as_real(torch.stft(x_padded, fft_size, hop_length=hop, window=win,
                                              center=False, win_length=win_len, return_complex=True))


def meanvar_norm(x, mask=None, dim=-1):
    x = x - masked_mean(x, dim=dim, mask=mask, keepdim=True)
    x = x / (masked_norm(x, p=2, dim=dim, keepdim=True, mask=mask) + EPS)
    return x


def masked_mean(x, dim=-1, mask=None, keepdim=False):
    if mask is None:
        return x.mean(dim=dim, keepdim=keepdim)
    return (x * mask).sum(dim=dim, keepdim=keepdim) / (
        mask.sum(dim=dim, keepdim=keepdim) + EPS
    )


def masked_norm(x, p=2, dim=-1, mask=None, keepdim=False):
    if mask is None:
        return torch.norm(x, p=p, dim=dim, keepdim=keepdim)
    return torch.norm(x * mask, p=p, dim=dim, keepdim=keepdim)


loss_func = NegSTOILoss(sample_rate=10000)
clean = torch.randn(2, 10000)
clean[:, 4000:6000] = 0.  # a pause in the speech
estimate = torch.zeros(2, 10000, requires_grad=True)
with torch.no_grad():
    estimate.copy_(clean + 0.1 * torch.randn(2, 10000))
    estimate[:, 4000:6000] = 0.
loss_batch = loss_func(estimate, clean)
loss_batch.mean().backward()
print('NaN in gradient:', torch.isnan(estimate.grad).any().item())
