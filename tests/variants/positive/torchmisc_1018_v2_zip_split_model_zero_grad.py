# source: variant of 1018_rae_zero_grad_per_microbatch.py
# framework: torch
# family: D
# kind: misplaced-zero-grad
# pitfall: the training function splits inputs and labels with .split(micro_bs) and calls model.zero_grad() at the top of every micro-batch; optimizer.step() after the inner loop uses only the last micro-batch's gradient
# expect: line 17 — model.zero_grad() inside the micro-batch loop discards the gradients accumulated by earlier micro-batches
# checked: ran, reproduces (a step pre-hook counting backward calls since the last clear: [1, 1] instead of [4, 4])

import torch
import torch.nn as nn


def train(model, optimizer, criterion, loader, micro_bs=4):
    for xs, ys in loader:
        n_micro = (xs.size(0) + micro_bs - 1) // micro_bs
        for x, y in zip(xs.split(micro_bs), ys.split(micro_bs)):
            model.zero_grad()
            loss = criterion(model(x), y) / n_micro
            loss.backward()
        optimizer.step()


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train(model, optimizer, nn.CrossEntropyLoss(), [(torch.randn(16, 8), torch.randint(0, 3, (16,))) for _ in range(2)])
