# source: synthetic
# family: C
# pitfall: gradient accumulation implemented by summing micro-batch losses into acc_loss and calling acc_loss.backward() after every micro-batch
# expect: line 15 — acc_loss still contains the already-backpropagated graph of earlier micro-batches; the second backward hits freed buffers

import torch
import torch.nn.functional as F
from torch import nn


def train(model, batches, opt, accum=4):
    acc_loss = 0.0
    for i, (x, y) in enumerate(batches):
        acc_loss = acc_loss + F.cross_entropy(model(x), y) / accum
        acc_loss.backward()
        if (i + 1) % accum == 0:
            opt.step()
            opt.zero_grad()
            acc_loss = 0.0


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
    data = [(torch.randn(8, 20), torch.randint(0, 3, (8,))) for _ in range(16)]
    train(net, data, torch.optim.SGD(net.parameters(), lr=0.1))
