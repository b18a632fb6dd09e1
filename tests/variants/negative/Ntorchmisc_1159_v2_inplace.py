# source: negative twin of a variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# negative: self.W is updated in place under no_grad (self.W -= lr * self.W.grad)
# mimics: positive/1159_v2_class_self_attrs.py
# expect: no finding
# checked: ran, no error

import torch


class LogisticRegression:
    def __init__(self, n_features):
        self.W = torch.randn(n_features, 1, requires_grad=True)
        self.b = torch.zeros(1, requires_grad=True)

    def forward(self, x):
        return torch.sigmoid(x @ self.W + self.b)

    def step(self, lr):
        with torch.no_grad():
            self.W -= lr * self.W.grad
            self.b -= lr * self.b.grad

    def zero_grad(self):
        self.W.grad.zero_()
        self.b.grad.zero_()


X = torch.randn(32, 4)
y = (X[:, :1] > 0).float()
clf = LogisticRegression(4)
for epoch in range(10):
    p = clf.forward(X)
    loss = torch.nn.functional.binary_cross_entropy(p, y)
    loss.backward()
    clf.step(0.1)
    clf.zero_grad()
