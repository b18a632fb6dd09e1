# source: https://pytorch.org/docs/stable/notes/faq.html
# family: C
# pitfall: per-epoch statistic accumulated as epoch_loss += loss (the loss tensor itself) inside a train_one_epoch function
# expect: line 18 — epoch_loss keeps a reference to every iteration's autograd graph (grad_fn chain), so activations are never freed and memory grows; use loss.item()

import torch
import torch.nn as nn


def train_one_epoch(model, loader, optimizer, criterion):
    model.train()
    epoch_loss = 0
    for images, labels in loader:
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        epoch_loss += loss
    return epoch_loss / len(loader)


if __name__ == "__main__":
    net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 512), nn.ReLU(), nn.Linear(512, 10))
    loader = [(torch.randn(64, 3, 32, 32), torch.randint(0, 10, (64,))) for _ in range(500)]
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    history = [train_one_epoch(net, loader, opt, nn.CrossEntropyLoss()) for _ in range(3)]
    print(history)
