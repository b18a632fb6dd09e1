# source: variant of 1058_conv_y_grad_none_variable.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: hand-written Grad-CAM: the model's forward stores the last conv activation on self.activations; after backward the code reads model.activations.grad, which is None (non-leaf, no retain_grad)
# expect: line 26 — model.activations.grad is None (the activation is an intermediate)
# checked: ran, reproduces (AttributeError: 'NoneType' object has no attribute 'mean')
import torch
import torch.nn as nn


class CamNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        self.activations = self.features(x)
        return self.fc(self.activations.mean((2, 3)))


model = CamNet()
logits = model(torch.rand(1, 3, 8, 8))
logits[0, logits.argmax()].backward()
grads = model.activations.grad
weights = grads.mean((2, 3), keepdim=True)
