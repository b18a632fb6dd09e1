# source: variant of 1013_module_layers_in_python_list.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: transformer blocks built with a list comprehension of a custom nn.Module class and kept in a plain list
# expect: line 26 — self.blocks = [Block(...) for _ in range(depth)] is a plain list, not nn.ModuleList
# checked: ran, reproduces (the listed layers are missing from model.parameters()/optimizer; weights unchanged after step)
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class Encoder(nn.Module):
    def __init__(self, dim=8, depth=2):
        super().__init__()
        self.embed = nn.Linear(4, dim)
        self.blocks = [Block(dim) for _ in range(depth)]
        self.head = nn.Linear(dim, 2)

    def forward(self, x):
        x = self.embed(x)
        for blk in self.blocks:
            x = blk(x)
        return self.head(x)


def build_optimizer(model):
    return torch.optim.AdamW(model.parameters(), lr=1e-3)


if __name__ == "__main__":
    model = Encoder()
    opt = build_optimizer(model)
    print("params:", len(list(model.parameters())), "(blocks missing)")
