# source: synthetic
# family: A
# pitfall: nn.Module.forward round-trips an intermediate activation through NumPy/SciPy (gaussian smoothing) and back with torch.from_numpy
# expect: line 19 — the activation is converted to NumPy in forward(); everything before it (self.enc) silently stops receiving gradients

import torch
import torch.nn as nn
from scipy.ndimage import gaussian_filter


class DenoiseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(1, 16, 3, padding=1)
        self.dec = nn.Conv2d(16, 1, 3, padding=1)

    def forward(self, x):
        h = torch.relu(self.enc(x))
        h_np = h.detach().cpu().numpy()
        h_np = gaussian_filter(h_np, sigma=(0, 0, 1, 1))
        h = torch.from_numpy(h_np).to(x.device)
        return self.dec(h)


model = DenoiseNet()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
noisy, clean = torch.randn(8, 1, 32, 32), torch.randn(8, 1, 32, 32)
for it in range(100):
    loss = nn.functional.mse_loss(model(noisy), clean)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(model.enc.weight.grad)  # None: the encoder never trains
