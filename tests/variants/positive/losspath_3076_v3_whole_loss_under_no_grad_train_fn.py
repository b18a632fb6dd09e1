# source: variant of 3076_loss_input_recomputed_under_no_grad.py
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: a train function copied from the evaluation loop keeps the forward pass inside `with torch.no_grad():`; the loss has no grad_fn and backward fails
# expect: line 20 — loss.backward() of a loss computed entirely inside torch.no_grad() (lines 16-18): it has no grad_fn
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)

import torch
import torch.nn as nn


def train(model, loader, criterion, optimizer):
    model.train()
    for x, y in loader:
        with torch.no_grad():
            out = model(x)
            loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


model = nn.Linear(10, 3)
train(model, [(torch.randn(4, 10), torch.randint(0, 3, (4,)))], nn.CrossEntropyLoss(),
      torch.optim.SGD(model.parameters(), lr=0.1))
