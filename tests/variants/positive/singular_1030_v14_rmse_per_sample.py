# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: per-sample RMSE as F.mse_loss(pred, target, reduction='none').mean(-1).sqrt(); a sample predicted exactly has 0 and a NaN gradient
# expect: line 14 — F.mse_loss(..., reduction='none').mean(-1).sqrt() at 0
# checked: ran (torch 2.13 CPU), reproduces (pred.grad row 0 = [nan, nan])

import torch
import torch.nn.functional as F

pred = torch.tensor([[1.0, 2.0], [0.5, 0.5]], requires_grad=True)
target = torch.tensor([[1.0, 2.0], [0.0, 1.0]])
rmse = F.mse_loss(pred, target, reduction="none").mean(-1).sqrt()
rmse.mean().backward()
print(pred.grad)
