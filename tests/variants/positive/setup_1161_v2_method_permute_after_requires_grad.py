# source: variant of 1161_scratchai_fgm_unsqueeze_after_requires_grad.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: an attack class enables grad on the HWC input and then permutes it to CHW + unsqueezes; x is a non-leaf, so x.grad is None after backward
# expect: line 20 — x = x.permute(...).unsqueeze(0) after requires_grad_(): x.grad stays None
# checked: ran, reproduces (.grad is None: TypeError/AttributeError on NoneType)
import torch
import torch.nn as nn


class FGSM:
    def __init__(self, net, eps=0.03):
        self.net = net
        self.eps = eps
        self.crit = nn.CrossEntropyLoss()

    def __call__(self, x_hwc, y):
        x = x_hwc.clone().detach().requires_grad_(True)
        x = x.permute(2, 0, 1).unsqueeze(0)
        loss = self.crit(self.net(x), y)
        loss.backward()
        return x + self.eps * x.grad.sign()


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 10))
    FGSM(net)(torch.rand(16, 16, 3), torch.tensor([1]))
