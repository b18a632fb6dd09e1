# source: https://github.com/meta-pytorch/captum/issues/564
# framework: torch
# family: F
# kind: other-rnn-backward-in-eval
# pitfall: Integrated Gradients needs input gradients of a trained LSTM that was loaded and put in eval mode; captum's backward through the cuDNN LSTM fails on GPU
# expect: line 26 — ig.attribute() backpropagates through the eval-mode cuDNN LSTM: "cudnn RNN backward can only be called in training mode"
# checked: parse only (cuDNN-specific; model loading lines reconstructed from the thread's description "I have a trained LSTM model")
import numpy as np
import torch
from captum.attr import IntegratedGradients

lstm = torch.load('trained_lstm.pt').cuda()
lstm.eval()
x_d = torch.load('x_d.pt').cuda()
x_s = torch.load('x_s.pt').cuda()
x_one_hot = torch.load('x_one_hot.pt').cuda()


def forward_fun(x_d, x_s, x_one_hot):
    out = lstm(x_d, x_s, x_one_hot)[0][:,-1]  #0 is for the cell output and -1 is for the last index in the ouput series
    return out
ig = IntegratedGradients(forward_fun) 

attrs = []
for i in range(x_d.shape[0]):
    attr = ig.attribute(inputs=(x_d[i:i+1]), additional_forward_args=(x_s[i:i+1], x_one_hot)).cpu().data.numpy()
    attrs.append(attr)
attrs = np.concatenate(attrs, axis=0)
