# source: variant of 3087_recurrent_linear_attention_state_iadd.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: EMA-style recurrent memory updated in place with mem.mul_(decay).add_(x) across steps; the previous step's matmul saved mem
# expect: line 18 — mem.mul_(decay).add_(...) on state saved by the previous step
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2, 4]], which is output 0 of Add, is at version 6; expected version 4 )
import torch
import torch.nn as nn

proj = nn.Linear(4, 4)
readout = nn.Linear(4, 1)
decay = 0.9
mem = torch.zeros(2, 4)
outs = []
for t in range(3):
    x = proj(torch.randn(2, 4))
    mem.mul_(decay).add_(x)
    outs.append(readout(mem))
torch.stack(outs).sum().backward()
