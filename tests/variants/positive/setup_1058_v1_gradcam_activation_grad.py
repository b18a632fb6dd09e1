# source: variant of 1058_conv_y_grad_none_variable.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: Grad-CAM spelling: the feature map of model.features(x) is an intermediate; after backward of the class score its .grad is None (no retain_grad / hook)
# expect: line 26 — feats.grad read on the intermediate activation
# checked: ran, reproduces (.grad is None: TypeError/AttributeError on NoneType)
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.classifier = nn.Linear(8, 10)

    def forward(self, x):
        return self.classifier(self.features(x).mean((2, 3)))


def grad_cam(model, img, cls):
    feats = model.features(img)
    logits = model.classifier(feats.mean((2, 3)))
    logits[0, cls].backward()
    weights = feats.grad.mean((2, 3), keepdim=True)
    return torch.relu((weights * feats).sum(1))


if __name__ == "__main__":
    grad_cam(Net(), torch.rand(1, 3, 16, 16), 2)
