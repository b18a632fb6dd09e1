# source: synthetic
# family: D
# pitfall: model.zero_grad() is called after loss.backward() but before optimizer.step() ("clean up before the update")
# expect: line 17 — the gradients are reset (set to None) right before step(): the optimizer skips every parameter and the model never changes

import torch
import torch.nn as nn


def fit(model, data, epochs=10):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(epochs):
        for x, y in data:
            pred = model(x)
            loss = nn.functional.huber_loss(pred, y)
            loss.backward()
            model.zero_grad()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    fit(nn.Linear(4, 1), [(torch.randn(32, 4), torch.randn(32, 1)) for _ in range(20)])
