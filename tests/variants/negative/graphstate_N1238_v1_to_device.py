# source: variant of 1238_cuda_copy_of_leaf_grad_none.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: fixed twin: the tensor is created on the device (or requires_grad_() is called after the move), so it is a leaf
# expect: no finding
# checked: ran (FAKECUDA shim where needed), grad is populated (         -0.2165, -0.3087]]))
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(10, 1).to(device)
x = torch.randn(4, 10, device=device, requires_grad=True)
out = model(x).sum()
out.backward()
print("input grad:", x.grad)
