# source: https://github.com/pytorch/pytorch/issues/5878
# framework: torch
# family: F
# kind: other-rnn-backward-in-eval
# pitfall: for dynamic evaluation the LSTM is put in eval mode and then backpropagated through; the cuDNN RNN kernels only implement backward in training mode
# expect: line 22 — backward through an nn.LSTM whose forward ran after model.eval() on CUDA raises "cudnn RNN backward can only be called in training mode"
# checked: parse only (cuDNN-specific; the CPU kernels accept the backward)

import torch
import torch.nn as nn
import torch.autograd as ag

model = nn.LSTM(1, 1, 1)
model.cuda()
x = ag.Variable(torch.ones(1, 1, 1).cuda())
label = ag.Variable(torch.zeros(1).long().cuda())

model.eval()
model.zero_grad()
y, _ = model(x)
loss = torch.nn.functional.nll_loss(y[0], label)
loss.backward()
