# source: variant of 1044_fcn_nllloss_reduce_false_backward.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: build_loss(cfg) returns BCEWithLogitsLoss(reduction="none") for per-sample weighting; the weighted loss is multiplied by the weights but never reduced before backward
# expect: line 27 — backward() on the weighted per-sample loss (not a scalar)
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)

import torch
import torch.nn as nn


def build_loss(cfg):
    if cfg.get("weighted"):
        return nn.BCEWithLogitsLoss(reduction="none")
    return nn.BCEWithLogitsLoss()


cfg = {"weighted": True}
model = nn.Linear(10, 1)
criterion = build_loss(cfg)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(2):
    x, y, w = torch.randn(8, 10), torch.randint(0, 2, (8, 1)).float(), torch.rand(8, 1)
    loss = criterion(model(x), y) * w
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
