# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: the predicted keypoints are rebuilt with torch.tensor(pred.tolist(), requires_grad=True) to reorder them in Python; .tolist() turns them into numbers and the rebuilt tensor is a fresh leaf, so the keypoint loss never reaches the network
# expect: line 17 — pred.tolist() turns the prediction into Python numbers (torch.tensor(..., requires_grad=True) on line 19 then makes a fresh leaf of them)
# checked: ran, reproduces (the network's weights get no gradient)

import torch
import torch.nn as nn
import torch.nn.functional as F

FLIP = [1, 0, 3, 2]


def flip_keypoints(pred):
    pts = pred.tolist()
    flipped = [[pts[b][j] for j in FLIP] for b in range(len(pts))]
    return torch.tensor(flipped, requires_grad=True)


net = nn.Linear(8, 4)
optimizer = torch.optim.Adam(net.parameters())
x, y = torch.randn(3, 8), torch.randn(3, 4)
loss = F.smooth_l1_loss(flip_keypoints(net(x)), y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(net.weight.grad)
