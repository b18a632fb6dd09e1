# source: variant of 1126_ddpm_self_condition_inference_mode.py
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# pitfall: a FixMatch-style step computes pseudo-labels on the weakly augmented batch under `with torch.inference_mode():` and multiplies the confidence mask into the strong-branch loss; the mask is an inference tensor that mul saves for backward, so backward() fails
# expect: line 15 — torch.inference_mode() makes the confidence mask an inference tensor that the training loss saves for backward; use torch.no_grad()
# checked: ran, reproduces (RuntimeError: Inference tensors cannot be saved for backward)

import torch
import torch.nn as nn
import torch.nn.functional as F


def fixmatch_step(model, optimizer, x_l, y_l, x_weak, x_strong, threshold=0.0):
    with torch.inference_mode():
        probs = torch.softmax(model(x_weak), dim=-1)
        max_probs, pseudo = probs.max(dim=-1)
        mask = (max_probs >= threshold).float()
    sup = F.cross_entropy(model(x_l), y_l)
    unsup = (F.cross_entropy(model(x_strong), pseudo, reduction="none") * mask).mean()
    loss = sup + unsup
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.03)
print(fixmatch_step(model, opt, torch.randn(4, 10), torch.randint(0, 4, (4,)), torch.randn(8, 10), torch.randn(8, 10)))
