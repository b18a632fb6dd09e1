# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: a box-regression head converts (cx, cy, w, h) to corners with torch.as_tensor([...]) of indexed elements of its prediction; as_tensor of a list copies the values, so the IoU loss has no path to the head
# expect: line 21 — torch.as_tensor(list of predicted elements) copies values; the corners have no history back to the head
# checked: ran, reproduces (loss.backward() raises "element 0 of tensors does not require grad")

import torch
import torch.nn as nn


class BoxHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, feat):
        p = self.fc(feat)
        cx, cy, w, h = p[0], p[1], p[2].exp(), p[3].exp()
        return torch.as_tensor([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])


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
