# source: variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# pitfall: the training function receives model and optimizer and clears with model.zero_grad() before every backward, but optimizer.step() only runs every accumulation_steps batches; the accumulated gradients of the other batches are wiped
# expect: line 18 — model.zero_grad() on every batch of an accumulate-then-step loop discards the accumulated gradients
# checked: ran, reproduces (a step pre-hook counting backward calls since the last clear: [1, 1], each optimizer.step() sees one micro-batch instead of the accumulated ones)

import torch
import torch.nn as nn


def train_one_epoch(model, optimizer, criterion, loader, accumulation_steps=2):
    model.train()
    for i, (inputs, labels) in enumerate(loader):
        outputs = model(inputs)
        loss = criterion(outputs, labels) / accumulation_steps
        model.zero_grad()
        loss.backward()
        if (i + 1) % accumulation_steps == 0:
            optimizer.step()


model = nn.Linear(8, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loader = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(4)]
train_one_epoch(model, optimizer, nn.CrossEntropyLoss(), loader)
