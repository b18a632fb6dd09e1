# source: https://pytorch.org/docs/stable/generated/torch.Tensor.retain_grad.html
# family: D
# pitfall: Grad-CAM reads .grad of an intermediate feature map (a non-leaf) without calling retain_grad() before backward
# expect: line 23 — .grad of a non-leaf tensor is not populated (None, with a warning); the CAM computation then crashes

import torch
import torch.nn as nn


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.classifier = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))


model = SmallCNN().eval()
img = torch.rand(1, 3, 64, 64)
fmap = model.features(img)
logits = model.classifier(fmap)
cls = logits.argmax(dim=1).item()
logits[0, cls].backward()
grads = fmap.grad
weights = grads.mean(dim=(2, 3), keepdim=True)
cam = torch.relu((weights * fmap).sum(dim=1)).squeeze(0)
