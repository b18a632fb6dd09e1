# source: https://pytorch.org/tutorials/beginner/fgsm_tutorial.html
# family: F
# negative: saliency map: the input is cloned and marked with requires_grad_() before the forward pass, so the score depends on it
# mimics: requires_grad_() on an input image in a saliency / attack helper
# expect: no finding

import torch
import torch.nn as nn

model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5)).eval()
for p in model.parameters():
    p.requires_grad_(False)


def saliency(img, target):
    img = img.clone().requires_grad_()
    scores = model(img)
    scores[0, target].backward()
    return img.grad.abs().max(dim=1)[0]


sal = saliency(torch.rand(1, 3, 64, 64), target=2)
print(sal.shape)
