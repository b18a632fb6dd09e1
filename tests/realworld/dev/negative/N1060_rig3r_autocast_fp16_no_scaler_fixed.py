# source: https://github.com/engichang1467/Open-Rig3R/issues/35
# framework: torch
# family: E
# kind: fp16-without-scaler
# negative: the fix proposed and applied in the issue: autocast to bfloat16, which has float32's exponent range, so no loss scaling is needed
# mimics: positive/1060_rig3r_autocast_fp16_no_scaler.py
# expect: no finding
# checked: parse only (the float16 default and the underflow need CUDA)

import torch
import torch.nn as nn
from torch.amp import autocast

device = torch.device("cuda")


class MultiTaskLoss(nn.Module):
    def forward(self, outputs, targets):
        pointmap = nn.functional.mse_loss(outputs["pointmap"], targets["pointmap"])
        raymap = (1 - nn.functional.cosine_similarity(outputs["raymap"], targets["raymap"], dim=-1)).mean()
        return pointmap + raymap


def train_one_epoch(model, loader, optimizer, criterion):
    model.train()
    for images, metadata, targets in loader:
        images = images.to(device)
        optimizer.zero_grad()
        with autocast(device_type=str(device), dtype=torch.bfloat16):
            outputs = model(images, metadata)
            loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
