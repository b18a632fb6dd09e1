# source: synthetic
# family: D
# pitfall: gradient-noise estimate stores per-micro-batch gradients with p.grad.detach() and zeroes .grad in place before each micro-batch
# expect: line 20 — detach() shares storage with p.grad: every snapshot is the same tensor, so the estimated gradient variance is exactly zero

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
params = list(model.parameters())


def grad_noise_scale(micro_batches):
    snapshots = []
    for x, y in micro_batches:
        for p in params:
            if p.grad is not None:
                p.grad.zero_()
        nn.functional.mse_loss(model(x), y).backward()
        snapshots.append([p.grad.detach() for p in params])
    flat = torch.stack([torch.cat([g.flatten() for g in snap]) for snap in snapshots])
    return flat.var(dim=0).sum() / flat.mean(dim=0).pow(2).sum()


mbs = [(torch.randn(8, 10), torch.randn(8, 1)) for _ in range(6)]
print(grad_noise_scale(mbs))  # tensor(0.)
