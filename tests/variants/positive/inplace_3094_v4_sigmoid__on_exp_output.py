# source: variant of 3094_relu_then_functional_relu_.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: torch.sigmoid_ applied in place to the output of .exp(), which ExpBackward saved
# expect: line 12 — torch.sigmoid_(y) on an exp() output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [5]], which is output 0 of Exp, is at version 1; expected version 0 ins)
import torch

x = torch.randn(5, requires_grad=True)
y = x.exp()
torch.sigmoid_(y)
y.sum().backward()
