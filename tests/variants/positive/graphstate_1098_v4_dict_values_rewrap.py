# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: the loss terms are kept in a dict and combined with torch.tensor(list(loss_dict.values())).sum(); the rewrap drops their graphs
# expect: line 17 — torch.tensor(list(loss_dict.values())) copies the loss values
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(4, 2)
optimizer = torch.optim.Adam(model.parameters())
x, y = torch.randn(8, 4), torch.randn(8, 2)
out = model(x)
loss_dict = {"l1": F.l1_loss(out, y), "l2": F.mse_loss(out, y)}
loss = torch.tensor(list(loss_dict.values())).sum()
optimizer.zero_grad()
loss.backward()
optimizer.step()
