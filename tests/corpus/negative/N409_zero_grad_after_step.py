# source: https://pytorch.org/tutorials/recipes/recipes/zeroing_out_gradients.html
# family: D
# negative: zero_grad() placed at the end of the iteration, after optimizer.step(); gradients are still cleared before the next backward
# mimics: zero_grad() next to backward()/step()
# expect: no finding

import torch
import torch.nn as nn


def fit(model, data, epochs=10):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    optimizer.zero_grad()
    for epoch in range(epochs):
        for x, y in data:
            loss = nn.functional.huber_loss(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        print(epoch, loss.item())


if __name__ == "__main__":
    fit(nn.Linear(4, 1), [(torch.randn(32, 4), torch.randn(32, 1)) for _ in range(20)])
