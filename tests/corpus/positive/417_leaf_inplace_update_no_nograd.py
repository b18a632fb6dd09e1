# source: https://discuss.pytorch.org/t/leaf-variable-was-used-in-an-inplace-operation/308
# family: D
# pitfall: from-scratch logistic regression applies w -= lr * w.grad directly, without a torch.no_grad() block
# expect: line 16 — in-place update of a leaf that requires grad while grad mode is on: "a leaf Variable that requires grad is being used in an in-place operation"

import torch


def train_logreg(X, y, lr=0.1, epochs=100):
    w = torch.zeros(X.shape[1], requires_grad=True)
    b = torch.zeros((), requires_grad=True)
    for epoch in range(epochs):
        p = torch.sigmoid(X @ w + b)
        loss = torch.nn.functional.binary_cross_entropy(p, y)
        loss.backward()
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    return w, b


if __name__ == "__main__":
    X = torch.randn(500, 5)
    y = (X[:, 0] - X[:, 1] > 0).float()
    print(train_logreg(X, y))
