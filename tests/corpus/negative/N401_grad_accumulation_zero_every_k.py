# source: https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-accumulation
# family: D
# negative: gradient accumulation: several backward() calls per optimizer step on purpose; zero_grad() runs right after each step
# mimics: backward() in a loop without zero_grad() every iteration
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, batches, accum_steps=4):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    optimizer.zero_grad()
    for i, (x, y) in enumerate(batches):
        loss = F.cross_entropy(model(x), y) / accum_steps
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
    train(net, [(torch.randn(8, 20), torch.randint(0, 3, (8,))) for _ in range(16)])
