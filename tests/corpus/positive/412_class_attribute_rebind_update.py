# source: synthetic
# family: D
# pitfall: minimal linear-regression class performs its update as self.w = self.w - self.lr * self.w.grad
# expect: line 18 — the attribute is rebound to a graph node (non-leaf) outside torch.no_grad(): the next backward leaves self.w.grad None and the graph keeps growing

import torch


class LinearRegression:
    def __init__(self, n_features, lr=0.05):
        self.w = torch.zeros(n_features, 1, requires_grad=True)
        self.b = torch.zeros(1, requires_grad=True)
        self.lr = lr

    def step(self, X, y):
        loss = ((X @ self.w + self.b - y) ** 2).mean()
        loss.backward()
        self.w = self.w - self.lr * self.w.grad
        with torch.no_grad():
            self.b -= self.lr * self.b.grad
            self.b.grad = None
        return loss.item()


model = LinearRegression(3)
X = torch.randn(200, 3)
y = X @ torch.tensor([[2.0], [-1.0], [0.5]])
for epoch in range(100):
    model.step(X, y)
