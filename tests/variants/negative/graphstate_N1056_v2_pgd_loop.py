# source: variant of 1056_advertorch_fgsm_adv_grad_nonleaf.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: fixed twin: the tensor is made a leaf again (detach().requires_grad_()) or retain_grad() is called before backward
# expect: no finding
# checked: ran, grad is populated (exit 0)
import torch
import torch.nn as nn


def pgd_attack(model, images, labels, eps=0.3, alpha=2 / 255, iters=3):
    loss_fn = nn.CrossEntropyLoss()
    ori_images = images.clone()
    x_adv = images.clone().detach().requires_grad_(True)
    for _ in range(iters):
        outputs = model(x_adv)
        model.zero_grad()
        cost = loss_fn(outputs, labels)
        cost.backward()
        x_adv = x_adv + alpha * x_adv.grad.sign()
        eta = torch.clamp(x_adv - ori_images, min=-eps, max=eps)
        x_adv = torch.clamp(ori_images + eta, min=0, max=1).detach().requires_grad_(True)
    return x_adv


model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))
pgd_attack(model, torch.rand(4, 1, 28, 28), torch.randint(0, 10, (4,)))
