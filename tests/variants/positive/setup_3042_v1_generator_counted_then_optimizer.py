# source: variant of 3042_hypernet_filter_iterator_exhausted.py
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: a generator expression of trainable parameters is consumed by a parameter count for logging and then handed to the optimizer, which receives nothing
# expect: line 15 — Adam(trainable, ...) walks a generator already exhausted by the count on the previous line
# checked: ran, reproduces (ValueError: optimizer got an empty parameter list)
import torch
import torch.nn as nn


def build_optimizer(model, lr=1e-3):
    trainable = (p for p in model.parameters() if p.requires_grad)
    print("trainable params:", sum(p.numel() for p in trainable))
    return torch.optim.Adam(trainable, lr=lr)


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
    model[0].requires_grad_(False)
    build_optimizer(model)
