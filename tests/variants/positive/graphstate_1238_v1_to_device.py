# source: variant of 1238_cuda_copy_of_leaf_grad_none.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: the input is created with requires_grad=True and then moved with .to(device); x is the non-leaf device copy and x.grad stays None after backward
# expect: line 13 — torch.randn(..., requires_grad=True).to(device) keeps only the non-leaf copy
# checked: ran with a fake-CUDA shim (FAKECUDA: .to("cuda") returns a non-leaf copy), reproduces (input grad: None)
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(10, 1).to(device)
x = torch.randn(4, 10, requires_grad=True).to(device)
out = model(x).sum()
out.backward()
print("input grad:", x.grad)
