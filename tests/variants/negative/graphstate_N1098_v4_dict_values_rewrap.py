# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: fixed twin (detach the fake for D / detach carried state / torch.stack / softmax probabilities / reduce the loss)
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(4, 2)
optimizer = torch.optim.Adam(model.parameters())
x, y = torch.randn(8, 4), torch.randn(8, 2)
out = model(x)
loss_dict = {"l1": F.l1_loss(out, y), "l2": F.mse_loss(out, y)}
loss = torch.stack(list(loss_dict.values())).sum()
optimizer.zero_grad()
loss.backward()
optimizer.step()
