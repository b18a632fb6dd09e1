# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the criterion comes from a build_loss(cfg) factory in the same file; the epoch total adds loss * batch size (a tensor with history), keeping every batch's graph
# expect: line 34 — total += loss * x.size(0) keeps each batch's graph; use loss.item() * x.size(0)
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn


def build_loss(cfg):
    if cfg["loss"] == "l1":
        return nn.L1Loss()
    return nn.MSELoss()


def build_model(cfg):
    return nn.Sequential(nn.Linear(cfg["in"], 32), nn.ReLU(), nn.Linear(32, 1))


def train(cfg, loader):
    model = build_model(cfg)
    criterion = build_loss(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        total, n = 0.0, 0
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            total += loss * x.size(0)
            n += x.size(0)
        print(epoch, total / n)
    return total


if __name__ == "__main__":
    cfg = {"loss": "l1", "in": 6, "lr": 1e-3, "epochs": 2}
    loader = [(torch.randn(4, 6), torch.randn(4, 1)) for _ in range(3)]
    pass
