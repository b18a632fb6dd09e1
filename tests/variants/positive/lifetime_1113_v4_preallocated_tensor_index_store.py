# source: variant of 1113_stagate_loss_list_append.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: per-epoch losses are written into a preallocated tensor (loss_hist[epoch] = loss); the in-place copy makes loss_hist part of every epoch's graph, so all of them stay alive
# expect: line 22 — loss_hist[epoch] = loss keeps each epoch's graph (CopySlices); store loss.item() or loss.detach()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every step graph stays alive)

import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, x, y, n_epochs=5):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_hist = torch.zeros(n_epochs)
    for epoch in range(n_epochs):
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        loss_hist[epoch] = loss
    return loss_hist


if __name__ == "__main__":
    h = train(nn.Linear(3, 1), torch.randn(10, 3), torch.randn(10, 1))
    pass
