# source: https://github.com/pytorch/pytorch/issues/9391
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: an element of the sigmoid output is overwritten in place before backward; sigmoid's backward needs its own output, so autograd detects the version change (the same assignment after a hand-written 1/(exp(-a)+1) silently passes, which confused the reporter)
# expect: line 13 — b[1] = 2 modifies the output saved by SigmoidBackward: "one of the variables needed for gradient computation has been modified by an inplace operation"
# checked: ran, reproduces; the REPL session as a script
import torch

a = torch.tensor([1,2,3.], requires_grad = True)
b = a.sigmoid()
print(b)
b[1]= 2
b.sum().backward()
