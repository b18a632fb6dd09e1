# source: https://pytorch.org/docs/stable/generated/torch.Tensor.retain_grad.html
# family: D
# negative: Grad-CAM calls retain_grad() on the intermediate feature map before backward, so fmap.grad is populated
# mimics: reading .grad of a non-leaf tensor
# expect: no finding

import torch
import torch.nn as nn

features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
classifier = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))

img = torch.rand(1, 3, 64, 64)
fmap = features(img)
fmap.retain_grad()
logits = classifier(fmap)
logits[0, logits.argmax(dim=1).item()].backward()
weights = fmap.grad.mean(dim=(2, 3), keepdim=True)
cam = torch.relu((weights * fmap).sum(dim=1)).squeeze(0).detach()
print(cam.shape)
