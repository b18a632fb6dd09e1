# source: variant of 1160_hairmatte_image_gradient_loss_argmax.py
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# pitfall: a binary matting loss rounds the sigmoid output to a hard mask (torch.round) before comparing gradients, so the term trains nothing
# expect: line 14 — torch.round(torch.sigmoid(...)) is piecewise constant
# checked: ran, reproduces (backward runs but round() has zero derivative: grad reaching the net: 0.0)
import torch
import torch.nn as nn


class HardMaskLoss(nn.Module):
    def forward(self, logits, gray):
        mask = torch.round(torch.sigmoid(logits))
        gx_m = mask[..., 1:] - mask[..., :-1]
        gx_i = gray[..., 1:] - gray[..., :-1]
        return (1 - (gx_m * gx_i) ** 2).mean()


net = nn.Conv2d(3, 1, 3, padding=1)
image = torch.rand(2, 3, 16, 16)
criterion = HardMaskLoss()
loss = criterion(net(image), image.mean(1, keepdim=True))
loss.backward()
print("grad reaching the net:", net.weight.grad.abs().sum().item())
