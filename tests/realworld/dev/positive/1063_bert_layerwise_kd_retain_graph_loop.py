# source: https://github.com/pytorch/pytorch/issues/40005
# framework: torch
# family: C
# kind: retain-graph-in-loop
# pitfall: intermediate BERT layers are distilled one by one; every layer's KL loss is backpropagated with retain_graph=True inside the loop, so all graphs stay alive and memory runs out
# expect: line 44 — backward(retain_graph=True) on every loop iteration keeps the whole forward graph (and its buffers) alive; use one backward on the summed loss or autograd.grad
# checked: ran, does not show the failure at this size (the out-of-memory needs the full BERT models)

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyBert(nn.Module):
    def __init__(self, n_layers=4, dim=16):
        super().__init__()
        self.layer = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_layers)])

    def forward(self, x):
        hidden_states = (x,)
        for l in self.layer:
            x = torch.tanh(l(x))
            hidden_states = hidden_states + (x,)
        return (x, None, None, hidden_states)


t_model = TinyBert()
s_model = TinyBert()
inputs = torch.randn(2, 5, 16)
t_outputs = t_model(inputs)
s_outputs = s_model(inputs)
t_result = t_outputs
encoder_layers = [1, 2, 3]

loss = torch.nn.KLDivLoss(reduction='batchmean')
batch, row, col = s_outputs[3][1].size()

for i, k in enumerate(encoder_layers):
    output = loss(F.log_softmax(s_outputs[3][i + 1], dim=2).view(batch * row, 1, col), F.softmax(t_result[3][k + 1], dim=2).view(batch * row, 1, col))
    # to freeze layers
    for name, p in s_model.named_parameters():
        if "layer." + str(i - 1) in name:
            p.requires_grad = False
    output.backward(retain_graph=True)
