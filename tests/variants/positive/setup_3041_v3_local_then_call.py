# source: variant of 3041_irb_conv_in_forward.py
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: forward() binds a new nn.Linear to a local name and then calls it; the projection is re-initialised every call and never trained
# expect: line 19 — proj = nn.Linear(...) inside forward()
# checked: ran, reproduces (layer not in parameters(); eval forward non-deterministic / weights unchanged by step)
import torch
import torch.nn as nn


class Fusion(nn.Module):
    def __init__(self, a_dim, b_dim, out_dim):
        super().__init__()
        self.out_dim = out_dim
        self.a_proj = nn.Linear(a_dim, out_dim)

    def forward(self, a, b):
        proj = nn.Linear(b.size(-1), self.out_dim)
        return self.a_proj(a) + proj(b)


if __name__ == "__main__":
    m = Fusion(4, 6, 8)
    a, b = torch.randn(2, 4), torch.randn(2, 6)
    print("deterministic:", torch.equal(m(a, b), m(a, b)), "n params:", len(list(m.parameters())))
