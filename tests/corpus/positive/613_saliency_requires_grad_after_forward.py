# source: https://pytorch.org/tutorials/beginner/fgsm_tutorial.html
# family: F
# pitfall: vanilla saliency map: the input image is marked with requires_grad_() after the model has already been run on it
# expect: line 16 — requires_grad is turned on after the graph was built; the score has no path to img (backward fails on the frozen model, or img.grad stays None)

import torch
import torch.nn as nn

model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5)).eval()
for p in model.parameters():
    p.requires_grad_(False)


def saliency(img, target):
    scores = model(img)
    img.requires_grad_()
    scores[0, target].backward()
    return img.grad.abs().max(dim=1)[0]


sal = saliency(torch.rand(1, 3, 64, 64), target=2)
