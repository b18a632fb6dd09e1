# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: a step-based (while) loop over an iterator accumulates the graph-carrying loss into loss_sum for the log interval, keeping every step's graph
# expect: line 23 — loss_sum += loss keeps every step's graph until the log interval; use loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every step graph stays alive)

import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, data_iter, max_steps=6, log_every=3):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    step, loss_sum = 0, 0.0
    while step < max_steps:
        x, y = next(data_iter)
        loss = F.l1_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_sum += loss
        step += 1
        if step % log_every == 0:
            pass
            loss_sum = 0.0


if __name__ == "__main__":
    it = iter([(torch.randn(4, 5), torch.randn(4, 2)) for _ in range(6)])
    train(nn.Linear(5, 2), it)
