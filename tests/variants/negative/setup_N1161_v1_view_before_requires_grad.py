# source: variant of 1161_scratchai_fgm_unsqueeze_after_requires_grad.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: none — batch dim added before enabling grad (the PR's fix), helper spelling
# checked: ran, correct (image.grad populated)
import torch
import torch.nn as nn


def saliency(model, image, label):
    model.eval()
    image = image.clone()
    if image.dim() == 3:
        image = image[None]
    image.requires_grad = True
    score = model(image)[0, label]
    score.backward()
    return image.grad.abs().amax(dim=1)[0]


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 10))
    print(saliency(net, torch.rand(3, 16, 16), 3).shape)
