# source: variant of 1238_cuda_copy_of_leaf_grad_none.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: fixed twin: the tensor is created on the device (or requires_grad_() is called after the move), so it is a leaf
# expect: no finding
# checked: ran (FAKECUDA shim where needed), grad is populated (          [-0.0983, -0.0771,  0.0076, -0.0471]]]]))
import torch
import torch.nn as nn


class InputGradient:
    def __init__(self, model, device="cuda"):
        self.device = device
        self.model = model.to(device)

    def compute(self, shape, target_class):
        self.image = torch.zeros(shape).to(self.device).requires_grad_()
        score = self.model(self.image)[0, target_class]
        score.backward()
        return self.image.grad


net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 4, 5))
g = InputGradient(net).compute((1, 3, 4, 4), 2)
print("saliency:", g)
