# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: fixed twin: the corners are stacked with torch.stack
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn


class BoxHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, feat):
        p = self.fc(feat)
        cx, cy, w, h = p[0], p[1], p[2].exp(), p[3].exp()
        return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])


def iou_loss(a, b):
    lt = torch.max(a[:2], b[:2])
    rb = torch.min(a[2:], b[2:])
    inter = (rb - lt).clamp(min=0).prod()
    area = lambda t: (t[2] - t[0]) * (t[3] - t[1])
    return 1 - inter / (area(a) + area(b) - inter)


head = BoxHead()
optimizer = torch.optim.SGD(head.parameters(), lr=0.01)
pred_box = head(torch.randn(16))
loss = iou_loss(pred_box, torch.tensor([0.0, 0.0, 1.0, 1.0]))
optimizer.zero_grad()
loss.backward()
optimizer.step()
