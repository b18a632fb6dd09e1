# source: negative twin of 1113_v3_append_loss_cpu.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: none: the stored value is loss.detach().cpu()
# checked: ran (stored losses have no grad_fn)

import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, x, n_epochs=5, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_list = []
    for epoch in range(n_epochs):
        model.train()
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), x)
        loss.backward()
        optimizer.step()
        loss_list.append(loss.detach().cpu())
    return loss_list


if __name__ == "__main__":
    print(train(nn.Sequential(nn.Linear(16, 4), nn.ELU(), nn.Linear(4, 16)), torch.randn(20, 16)))
