# source: https://pytorch.org/tutorials/beginner/basics/optimization_tutorial.html
# family: D
# negative: torch.no_grad() wraps only the evaluation loop (loss and accuracy for reporting); the training loop runs with grad enabled
# mimics: loss computed inside torch.no_grad()
# expect: no finding

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()


def train_loop(loader):
    model.train()
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def test_loop(loader):
    model.eval()
    total, correct = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            total += criterion(logits, y).item()
            correct += (logits.argmax(1) == y).sum().item()
    return total / len(loader), correct


data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(10)]
train_loop(data)
print(test_loop(data))
