# source: variant of 1032_dgunet_loss_list_rewrapped.py
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: fixed twin: the summed total is backpropagated as it is
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(10, 10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def compute_losses(out, target):
    return {
        "mse": F.mse_loss(out, target),
        "l1": F.l1_loss(out, target),
        "reg": 1e-4 * out.pow(2).mean(),
    }


x, y = torch.randn(4, 10), torch.randn(4, 10)
loss_dict = compute_losses(model(x), y)
total = sum(loss_dict.values())
optimizer.zero_grad()
total.backward()
optimizer.step()
print(model.weight.grad)
