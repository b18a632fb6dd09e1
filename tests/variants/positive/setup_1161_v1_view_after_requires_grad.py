# source: variant of 1161_scratchai_fgm_unsqueeze_after_requires_grad.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: saliency helper sets image.requires_grad = True and then adds a batch dim with image[None]; the name now points at a non-leaf view whose .grad is None
# expect: line 17 — `image = image[None]` after requires_grad was set: image.grad stays None
# checked: ran, reproduces (.grad is None: TypeError/AttributeError on NoneType)
import torch
import torch.nn as nn


def saliency(model, image, label):
    model.eval()
    image = image.clone()
    image.requires_grad = True
    if image.dim() == 3:
        image = image[None]
    score = model(image)[0, label]
    score.backward()
    return image.grad.abs().amax(dim=1)[0]


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 10))
    saliency(net, torch.rand(3, 16, 16), 3)
