# source: variant of 3041_irb_conv_in_forward.py
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: none — the lazily created self.proj is materialised by a dummy forward pass before the optimizer is built, so the optimizer holds it
# checked: ran, correct (proj updated by the step)
import torch
import torch.nn as nn


class LazyHead(nn.Module):
    def __init__(self, out_dim):
        super().__init__()
        self.out_dim = out_dim
        self.proj = None

    def forward(self, x):
        if self.proj is None:
            self.proj = nn.Linear(x.size(-1), self.out_dim)
        return self.proj(x)


if __name__ == "__main__":
    model = LazyHead(3)
    model(torch.zeros(1, 5))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    w0 = model.proj.weight.detach().clone()
    optimizer.zero_grad()
    model(torch.randn(4, 5)).pow(2).mean().backward()
    optimizer.step()
    print("proj changed:", not torch.equal(w0, model.proj.weight))
