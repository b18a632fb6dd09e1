# source: variant of 3070_reassign_a_cuda_grad_none.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: none — cast/moved first, then requires_grad_() on the result: a leaf
# checked: ran, correct (a.grad populated)
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
a = torch.tensor([1., 2., 3.]).double().to(device).requires_grad_()
b = a ** 2
c = b.mean(0)
c.backward()
print(a.grad)
