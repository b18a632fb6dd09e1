# source: https://pytorch.org/tutorials/beginner/pytorch_with_examples.html
# family: D
# negative: hand-written optimizer class updates leaf tensors in place under torch.no_grad() and resets .grad to None
# mimics: manual parameter update with p.grad inside a class
# expect: no finding

import torch


class ManualSGD:
    def __init__(self, params, lr=0.05):
        self.params = list(params)
        self.lr = lr

    @torch.no_grad()
    def step(self):
        for p in self.params:
            if p.grad is not None:
                p -= self.lr * p.grad

    def zero_grad(self):
        for p in self.params:
            p.grad = None


w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = ManualSGD([w, b])
X = torch.randn(200, 3)
y = X @ torch.tensor([[2.0], [-1.0], [0.5]])
for epoch in range(100):
    loss = ((X @ w + b - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
