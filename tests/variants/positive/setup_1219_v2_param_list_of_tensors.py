# source: variant of 1219_module_parameters_in_plain_dicts.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: per-layer scale Parameters kept in a plain Python list (nn.ParameterList needed), so model.parameters() and the optimizer skip them
# expect: line 16 — self.scales = [nn.Parameter(...) ...]: plain list of Parameters, not registered
# checked: ran, reproduces (the listed layers are missing from model.parameters()/optimizer; weights unchanged after step)
import torch
import torch.nn as nn


class ScaledMLP(nn.Module):
    def __init__(self, dims=(4, 8, 2)):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:])])
        self.scales = [nn.Parameter(torch.ones(b)) for b in dims[1:]]

    def forward(self, x):
        for layer, s in zip(self.layers, self.scales):
            x = torch.tanh(layer(x)) * s
        return x


if __name__ == "__main__":
    model = ScaledMLP()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    optimizer.zero_grad()
    model(torch.randn(3, 4)).pow(2).sum().backward()
    optimizer.step()
    print("scale unchanged after step:", torch.equal(model.scales[0], torch.ones(8)), "grad:", model.scales[0].grad is not None)
