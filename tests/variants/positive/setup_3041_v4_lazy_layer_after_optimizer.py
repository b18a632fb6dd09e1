# source: variant of 3041_irb_conv_in_forward.py
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: forward() lazily creates self.proj on the first call (registered then, but after the optimizer was built from model.parameters()), so the optimizer never updates it
# expect: line 21 — self.proj = nn.Linear(...) created inside forward(), after the optimizer captured the parameters
# checked: ran, reproduces (layer not in parameters(); eval forward non-deterministic / weights unchanged by step)
import torch
import torch.nn as nn


class LazyHead(nn.Module):
    def __init__(self, out_dim):
        super().__init__()
        self.out_dim = out_dim
        self.proj = None
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x):
        if self.proj is None:
            self.proj = nn.Linear(x.size(-1), self.out_dim)
        return self.proj(x) + self.bias


if __name__ == "__main__":
    model = LazyHead(3)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(2):
        optimizer.zero_grad()
        model(torch.randn(4, 5)).pow(2).mean().backward()
        w0 = model.proj.weight.detach().clone()
        optimizer.step()
    print("proj unchanged by step:", torch.equal(w0, model.proj.weight))
