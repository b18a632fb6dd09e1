# source: negative twin of 1114_v8_tensor_accumulator_zeros.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: none: the device accumulator adds loss.detach()
# checked: ran (accumulator has no grad_fn)

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
        epoch_loss += loss.detach()
    return epoch_loss / len(loader)


if __name__ == "__main__":
    model = nn.Linear(8, 3)
    loader = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
    print(train_one_epoch(model, nn.CrossEntropyLoss(), torch.optim.SGD(model.parameters(), lr=0.1), loader, "cpu"))
