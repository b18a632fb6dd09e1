# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the epoch total is a device tensor (torch.zeros((), device=device)) to avoid host syncs, and the loss tensor itself is added to it every batch; the accumulator then carries the graph of every batch
# expect: line 22 — epoch_loss += loss (tensor accumulator) keeps every batch's graph; add loss.detach()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every step graph stays alive)

import torch
import torch.nn as nn


def train_one_epoch(model, criterion, optimizer, loader, device):
    model.train()
    epoch_loss = torch.zeros((), device=device)
    for inputs, labels in loader:
        inputs, labels = inputs.to(device), labels.to(device)
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(inputs), labels)
        loss.backward()
        optimizer.step()
        epoch_loss += loss
    return epoch_loss / len(loader)


if __name__ == "__main__":
    model = nn.Linear(8, 3)
    loader = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
    avg = train_one_epoch(model, nn.CrossEntropyLoss(), torch.optim.SGD(model.parameters(), lr=0.1), loader, "cpu")
    pass
