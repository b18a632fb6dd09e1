# source: https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-clipping
# family: E
# pitfall: gradient accumulation with AMP: the clipping call before scaler.step() runs on the scaled gradients (no unscale_)
# expect: line 19 — clip_grad_norm_ sees gradients times the loss scale, so max_norm is meaningless and the reported grad norm is ~65536x too big

import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast


def train(model, batches, accum_steps=4, max_norm=1.0):
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    scaler = GradScaler()
    for i, (x, y) in enumerate(batches):
        with autocast():
            loss = nn.functional.mse_loss(model(x), y) / accum_steps
        scaler.scale(loss).backward()
        if (i + 1) % accum_steps == 0:
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
            opt.zero_grad()
            print("grad norm", gnorm.item())


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)).cuda()
    train(net, [(torch.randn(16, 64).cuda(), torch.randn(16, 1).cuda()) for _ in range(16)])
