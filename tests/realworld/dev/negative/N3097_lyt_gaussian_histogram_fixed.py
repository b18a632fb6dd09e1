# source: https://github.com/albrateanu/LYT-Net/issues/16
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: Maintainer's fix (commit 060e3c0): replace hard torch.histc binning with Gaussian-kernel soft binning, so the histogram term is differentiable w.r.t. y_pred.
# expect: no finding
# checked: ran, fix works (backward succeeds, model grads non-zero)
import torch
import torch.nn as nn


# --- LYT-Net PyTorch/losses.py @060e3c0 (verbatim) ---
def gaussian_kernel(x, mu, sigma):
    return torch.exp(-0.5 * ((x - mu) / sigma) ** 2)

def histogram_loss(y_true, y_pred, bins=256, sigma=0.01):
    
    bin_edges = torch.linspace(0.0, 1.0, bins, device=y_true.device)

    y_true_hist = torch.sum(gaussian_kernel(y_true.unsqueeze(-1), bin_edges, sigma), dim=0)
    y_pred_hist = torch.sum(gaussian_kernel(y_pred.unsqueeze(-1), bin_edges, sigma), dim=0)
    
    y_true_hist /= y_true_hist.sum()
    y_pred_hist /= y_pred_hist.sum()

    hist_distance = torch.mean(torch.abs(y_true_hist - y_pred_hist))
    return hist_distance


if __name__ == "__main__":
    model = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Sigmoid())
    x = torch.rand(2, 3, 16, 16)
    y_true = torch.rand(2, 3, 16, 16)
    y_pred = model(x)
    loss = histogram_loss(y_true, y_pred)
    loss.backward()
    print([p.grad.abs().sum().item() for p in model.parameters()])
