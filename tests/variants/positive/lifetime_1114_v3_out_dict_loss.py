# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the model's forward returns a dict; the loop backprops out["loss"] and sums out["loss"] (the tensor) into total_loss, keeping every batch's graph alive
# expect: line 33 — total_loss += out["loss"] keeps each batch's graph; use out["loss"].item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(10, 4)

    def forward(self, x, targets):
        pred = self.backbone(x)
        loss = F.smooth_l1_loss(pred, targets)
        return {"pred": pred, "loss": loss}


def train_one_epoch(model, optimizer, data_loader):
    model.train()
    total_loss = 0
    for images, targets in data_loader:
        out = model(images, targets)
        optimizer.zero_grad()
        out["loss"].backward()
        optimizer.step()
        total_loss += out["loss"]
    return total_loss / len(data_loader)


if __name__ == "__main__":
    model = Detector()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = [(torch.randn(2, 10), torch.randn(2, 4)) for _ in range(3)]
    pass
