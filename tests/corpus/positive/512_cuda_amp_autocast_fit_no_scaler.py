# source: https://pytorch.org/docs/stable/amp.html#gradient-scaling
# family: E
# pitfall: fit() helper wraps the forward in torch.cuda.amp.autocast() (float16 by default) and backpropagates the raw loss
# expect: line 19 — backward of an fp16 autocast graph without loss scaling: gradient underflow (zeros) in half precision; use torch.amp.GradScaler or bfloat16

import torch
from torch import nn
from torch.cuda.amp import autocast


def fit(model, loader, epochs=1):
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    for _ in range(epochs):
        for src, tgt in loader:
            opt.zero_grad()
            with autocast():
                out = model(src)
                loss = nn.functional.mse_loss(out, tgt)
            loss.backward()
            opt.step()


if __name__ == "__main__":
    layer = nn.TransformerEncoderLayer(d_model=128, nhead=4, batch_first=True).cuda()
    data = [(torch.randn(8, 32, 128, device="cuda"), torch.randn(8, 32, 128, device="cuda")) for _ in range(10)]
    fit(layer, data)
