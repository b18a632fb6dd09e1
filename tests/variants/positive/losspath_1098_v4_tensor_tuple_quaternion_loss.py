# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: a pose loss reorders the predicted quaternion from (x, y, z, w) to (w, x, y, z) with torch.tensor((q[3], q[0], q[1], q[2])); the construction copies values, so the rotation loss has no path back to the network
# expect: line 15 — torch.tensor(tuple of tensor elements) is not differentiable; the reordered quaternion has no history (use q[[3, 0, 1, 2]] or torch.stack)
# checked: ran, reproduces (loss.backward() raises "element 0 of tensors does not require grad")

import torch
import torch.nn as nn
import torch.nn.functional as F


def to_wxyz(q):
    return torch.tensor((q[3], q[0], q[1], q[2]))


def rotation_loss(pred_q, gt_q):
    q = F.normalize(to_wxyz(pred_q), dim=0)
    return 1.0 - (q * gt_q).sum().abs()


pose_net = nn.Linear(12, 4)
optimizer = torch.optim.Adam(pose_net.parameters(), lr=1e-3)
loss = rotation_loss(pose_net(torch.randn(12)), torch.tensor([1.0, 0.0, 0.0, 0.0]))
optimizer.zero_grad()
loss.backward()
optimizer.step()
