# source: https://pytorch.org/docs/stable/generated/torch.inference_mode.html
# family: F
# pitfall: linear probing caches frozen-backbone features under torch.inference_mode() (for speed) and then trains a head on them
# expect: line 16 — tensors created in inference mode cannot be saved for backward: the head's forward/backward raises "Inference tensors cannot be saved for backward" (use torch.no_grad())

import torch
import torch.nn as nn
import torch.nn.functional as F

backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()).eval()
head = nn.Linear(32, 10)
opt = torch.optim.SGD(head.parameters(), lr=0.1)

images = torch.randn(256, 3, 32, 32)
labels = torch.randint(0, 10, (256,))
with torch.inference_mode():
    feats = backbone(images)

for epoch in range(20):
    for i in range(0, 256, 64):
        loss = F.cross_entropy(head(feats[i:i + 64]), labels[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
