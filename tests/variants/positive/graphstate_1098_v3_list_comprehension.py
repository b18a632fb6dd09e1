# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: torch.tensor([...]) over a list comprehension of per-row norms of the model output; the result has no grad_fn
# expect: line 13 — torch.tensor([row.norm() for row in out]) copies values
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn


def norm_penalty(out):
    norms = torch.tensor([row.norm() for row in out])
    return ((norms - 1.0) ** 2).mean()


model = nn.Linear(6, 4)
out = model(torch.randn(3, 6))
penalty = norm_penalty(out)
penalty.backward()
