# source: synthetic
# family: A
# pitfall: a dictionary of detection losses stores one term as float(...) "so it can be json-logged"; the weighted sum is then backpropagated
# expect: line 28 — float() on the box-regression loss makes it a constant: the total still prints correctly but the box head never gets gradients

import torch
import torch.nn as nn
import torch.nn.functional as F

LOSS_WEIGHTS = {"cls": 1.0, "box": 5.0}


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(256, 128), nn.ReLU())
        self.cls_head = nn.Linear(128, 21)
        self.box_head = nn.Linear(128, 4)

    def forward(self, x):
        h = self.backbone(x)
        return {"logits": self.cls_head(h), "boxes": self.box_head(h)}


def compute_losses(out, tgt):
    return {
        "cls": F.cross_entropy(out["logits"], tgt["labels"]),
        "box": float(F.l1_loss(out["boxes"], tgt["boxes"])),
    }


model = TinyDetector()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
targets = {"labels": torch.randint(0, 21, (16,)), "boxes": torch.rand(16, 4)}
loss_dict = compute_losses(model(torch.randn(16, 256)), targets)
total = sum(LOSS_WEIGHTS[k] * v for k, v in loss_dict.items())
opt.zero_grad()
total.backward()
opt.step()
print({k: float(v) for k, v in loss_dict.items()}, model.box_head.weight.grad)
