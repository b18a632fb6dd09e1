# source: variant of 3087_recurrent_linear_attention_state_iadd.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — state updated out of place
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class LinearAttnCell(nn.Module):
    def __init__(self, d=4):
        super().__init__()
        self.proj = nn.Linear(d, 3 * d)
        self.state = None

    def forward(self, x):
        q, k, v = self.proj(x).chunk(3, dim=-1)
        if self.state is None:
            self.state = x.new_zeros(x.shape[0], x.shape[1], x.shape[1])
        self.state = self.state + torch.einsum("nd,nm->ndm", k, v)
        return torch.einsum("nd,ndm->nm", q, self.state)


cell = LinearAttnCell()
outs = [cell(torch.randn(2, 4)) for _ in range(3)]
torch.stack(outs).sum().backward()
