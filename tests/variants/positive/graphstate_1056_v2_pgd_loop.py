# source: variant of 1056_advertorch_fgsm_adv_grad_nonleaf.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: PGD attack function: x_adv starts as a leaf, but the update x_adv = clamp(x_adv + alpha*sign(grad)) rebinds it to a non-leaf, so on the second iteration x_adv.grad is None
# expect: line 21 — x_adv.grad read on a non-leaf (result of the previous iteration's update)
# checked: ran, reproduces (AttributeError: 'NoneType' object has no attribute 'sign')
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
        x_adv = torch.clamp(ori_images + eta, min=0, max=1)
    return x_adv


model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))
pgd_attack(model, torch.rand(4, 1, 28, 28), torch.randint(0, 10, (4,)))
