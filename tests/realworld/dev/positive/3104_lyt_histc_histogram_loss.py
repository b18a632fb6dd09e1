# source: https://github.com/albrateanu/LYT-Net/issues/16
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: LYT-Net's histogram_loss compares hard `torch.histc` bin counts of prediction and target; histc is a counting op with no derivative, so the term contributes no gradient (and alone cannot be backpropagated).
# expect: line 27 — `torch.histc(y_pred, ...)` hard-bins the model output inside the loss
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn — histc output has no grad_fn)
import torch
import torch.nn as nn
import torch.nn.functional as F


# --- LYT-Net PyTorch/losses.py @18d7dac (verbatim; VGG/MS-SSIM terms omitted) ---
def color_loss(y_true, y_pred):
    return torch.mean(torch.abs(torch.mean(y_true, dim=[1, 2, 3]) - torch.mean(y_pred, dim=[1, 2, 3])))

def psnr_loss(y_true, y_pred):
    mse = F.mse_loss(y_true, y_pred)
    psnr = 20 * torch.log10(1.0 / torch.sqrt(mse))
    return 40.0 - torch.mean(psnr)

def smooth_l1_loss(y_true, y_pred):
    return F.smooth_l1_loss(y_true, y_pred)

def histogram_loss(y_true, y_pred, bins=256):
    y_true_hist = torch.histc(y_true, bins=bins, min=0.0, max=1.0)
    y_pred_hist = torch.histc(y_pred, bins=bins, min=0.0, max=1.0)

    y_true_hist = y_true_hist / y_true_hist.sum()
    y_pred_hist = y_pred_hist / y_pred_hist.sum()

    hist_distance = torch.mean(torch.abs(y_true_hist - y_pred_hist))

    return hist_distance


if __name__ == "__main__":
    # stub model; the issue reporter trained with histogram_loss only
    model = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Sigmoid())
    x = torch.rand(2, 3, 16, 16)
    y_true = torch.rand(2, 3, 16, 16)
    y_pred = model(x)
    loss = histogram_loss(y_true, y_pred)
    loss.backward()
