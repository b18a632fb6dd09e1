# source: variant of 1238_cuda_copy_of_leaf_grad_none.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: a saliency/inversion helper class creates the optimized image with requires_grad=True and moves it to self.device; reading self.image.grad afterwards gives None
# expect: line 18 — torch.zeros(..., requires_grad=True).to(self.device) makes self.image a non-leaf
# checked: ran with a fake-CUDA shim (FAKECUDA: .to("cuda") returns a non-leaf copy), reproduces (saliency: None)
import torch
import torch.nn as nn


class InputGradient:
    def __init__(self, model, device="cuda"):
        self.device = device
        self.model = model.to(device)

    def compute(self, shape, target_class):
        self.image = torch.zeros(shape, requires_grad=True).to(self.device)
        score = self.model(self.image)[0, target_class]
        score.backward()
        return self.image.grad


net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 4, 5))
g = InputGradient(net).compute((1, 3, 4, 4), 2)
print("saliency:", g)
