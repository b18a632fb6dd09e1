# source: https://github.com/pytorch/pytorch/issues/9391
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the second snippet: the same element assignment after a hand-written 1/(exp(-a)+1); the division's backward needs its input, not its output, so the in-place write is legal and the gradient (zero for the overwritten element) is correct
# mimics: positive/1154_sigmoid_output_item_assignment.py
# expect: no finding
# checked: ran, no error (a.grad = [0.1966, 0.0000, 0.0452])
import torch

a = torch.tensor([1,2,3.], requires_grad = True)
b = 1/((-a).exp()+1)
print(b)
b[1]= 2
b.sum().backward()
print(a.grad)
