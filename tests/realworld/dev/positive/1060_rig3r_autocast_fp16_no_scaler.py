# source: https://github.com/engichang1467/Open-Rig3R/issues/35
# framework: torch
# family: E
# kind: fp16-without-scaler
# pitfall: the training step runs under autocast without a dtype (float16 on CUDA) and calls loss.backward() / optimizer.step() with no GradScaler, so small gradients (the bounded cosine raymap terms) silently underflow to zero
# expect: line 28 — float16 autocast with no GradScaler: gradients below 6e-5 flush to zero in backward (use bfloat16, or scale the loss with torch.amp.GradScaler)
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
        with autocast(device_type=str(device)):
            outputs = model(images, metadata)
            loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
