# source: variant of 1058_conv_y_grad_none_variable.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: fixed twin: the tensor is made a leaf again (detach().requires_grad_()) or retain_grad() is called before backward
# expect: no finding
# checked: ran, grad is populated (exit 0)
import torch
import torch.nn as nn


class CamNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        self.activations = self.features(x)
        self.activations.retain_grad()
        return self.fc(self.activations.mean((2, 3)))


model = CamNet()
logits = model(torch.rand(1, 3, 8, 8))
logits[0, logits.argmax()].backward()
grads = model.activations.grad
weights = grads.mean((2, 3), keepdim=True)
