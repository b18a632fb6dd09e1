# source: variant of 1113_stagate_loss_list_append.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the loop stores loss.cpu() believing the copy to host frees the graph; .cpu() is differentiable (a no-op on CPU), so every epoch's graph is still kept
# expect: line 24 — loss_list.append(loss.cpu()) still stores a tensor with history; use loss.item() or loss.detach().cpu()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every step graph stays alive)

import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, x, n_epochs=5, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_list = []
    for epoch in range(n_epochs):
        model.train()
        optimizer.zero_grad()
        out = model(x)
        loss = F.mse_loss(out, x)
        loss.backward()
        optimizer.step()
        loss_list.append(loss.cpu())
    return loss_list


if __name__ == "__main__":
    ll = train(nn.Sequential(nn.Linear(16, 4), nn.ELU(), nn.Linear(4, 16)), torch.randn(20, 16))
    pass
