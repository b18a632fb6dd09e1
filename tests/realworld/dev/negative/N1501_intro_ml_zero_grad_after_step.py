# source: https://github.com/SharifiZarchi/Introduction_to_Machine_Learning/issues/55
# framework: torch
# family: D
# kind: misplaced-zero-grad
# negative: optimizer.zero_grad() after optimizer.step() (the order the issue reported as wrong) clears the gradients before the next batch's backward, so nothing accumulates across batches
# mimics: a zero_grad placed after the update instead of before the backward
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn

model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 64), nn.ReLU(), nn.Linear(64, 10))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
train_loader = [(torch.randn(8, 1, 28, 28), torch.randint(0, 10, (8,))) for _ in range(3)]


def train_one_epoch(model, train_loader, criterion, optimizer):
    model.train()
    total = 0.0
    for images, labels in train_loader:
        outputs = model(images)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        total += loss.item()
    return total / len(train_loader)


for epoch in range(2):
    print(epoch, train_one_epoch(model, train_loader, criterion, optimizer))
