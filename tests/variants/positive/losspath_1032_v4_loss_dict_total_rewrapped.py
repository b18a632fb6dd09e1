# source: variant of 1032_dgunet_loss_list_rewrapped.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: the loss terms are summed from a dict and the total is rewrapped with torch.tensor(total, requires_grad=True) "to make sure it is a tensor that requires grad"; the copy is a new leaf, so nothing is trained
# expect: line 28 — torch.tensor(total, requires_grad=True) copies the summed loss into a fresh leaf; backward stops there
# checked: ran, reproduces (UserWarning about copy-constructing a tensor; the model's weights get no gradient)

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
total = torch.tensor(total, requires_grad=True)
optimizer.zero_grad()
total.backward()
optimizer.step()
print(model.weight.grad)
