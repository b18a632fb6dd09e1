"""A small training script with three classic autograd bugs (see `gradlint check examples/`)."""

import numpy as np
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
criterion = nn.CrossEntropyLoss()


def smoothness_penalty(logits):
    # "just a small regulariser": NumPy silently detaches it from the graph (GL101)
    spread = np.std(logits.detach().numpy(), axis=1)
    return torch.tensor(spread.mean(), requires_grad=True)


def train(epochs=3):
    running = 0.0
    for epoch in range(epochs):
        for step in range(100):
            x, y = torch.randn(32, 20), torch.randint(0, 5, (32,))
            logits = model(x)
            loss = criterion(logits, y) + 0.1 * smoothness_penalty(logits)
            loss.backward()  # no optimizer.zero_grad() anywhere in this loop (GL302)
            optimizer.step()
            running += loss  # keeps every step's graph alive (GL205)
        print(f"epoch {epoch}: {running / 100:.3f}")
        running = 0.0


if __name__ == "__main__":
    train()
