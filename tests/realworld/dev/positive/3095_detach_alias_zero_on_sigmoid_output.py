# source: https://github.com/Zijing5/PyTorch_AboutSomeDetails/blob/main/code/5.data&.detach().ipynb
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: `c = out.detach()` shares storage and version counter with `out`; `c.zero_()` therefore bumps the version of the sigmoid output that SigmoidBackward saved (the notebook contrasts it with `out.data`, which silently corrupts the gradient instead of raising).
# expect: line 15 — `c.zero_()` on a detach() alias of the saved sigmoid output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; expected version 0 instead -- cells 72+70 of the notes notebook merged; the notebook records the same error under torch 1.13)
import sys
import torch
from torch import nn

a = torch.tensor([1.,2.,3.], requires_grad=True)
out = a.sigmoid()
c = out.detach() #.detach()也是共享同一个内存
c.zero_() # out==zero
out.sum().backward() # 实际上节点值已经被改变了 但是这里没有报错
print(a.grad)
