# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: fixed twin: the quaternion is reordered by indexing, which keeps the graph
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn
import torch.nn.functional as F


def to_wxyz(q):
    return q[[3, 0, 1, 2]]


def rotation_loss(pred_q, gt_q):
    q = F.normalize(to_wxyz(pred_q), dim=0)
    return 1.0 - (q * gt_q).sum().abs()


pose_net = nn.Linear(12, 4)
optimizer = torch.optim.Adam(pose_net.parameters(), lr=1e-3)
loss = rotation_loss(pose_net(torch.randn(12)), torch.tensor([1.0, 0.0, 0.0, 0.0]))
optimizer.zero_grad()
loss.backward()
optimizer.step()
