# source: https://github.com/BorealisAI/advertorch/issues/79
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: the robustness test wraps the whole evaluation loop, including adversary.perturb(...), in torch.no_grad(); the gradient-based attack then fails in its loss.backward()
# expect: line 25 — the attack is run inside torch.no_grad(); a gradient attack needs autograd enabled (the maintainer: remove the no_grad)
# checked: parse only (needs advertorch)

import torch
import torch.nn as nn
from advertorch.attacks import LinfPGDAttack

net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 10))
adversary = LinfPGDAttack(
    net, loss_fn=nn.CrossEntropyLoss(reduction="sum"), eps=0.3,
    nb_iter=40, eps_iter=0.01, rand_init=True, clip_min=0.0, clip_max=1.0,
    targeted=False)
testloader = [(torch.rand(4, 3, 32, 32), torch.randint(0, 10, (4,)))]


def test(epoch):
    net.eval()
    correct = 0
    total = 0
    with torch.no_grad():
        for batch_idx, (inputs, targets) in enumerate(testloader):
            adv_untargeted = adversary.perturb(inputs, targets)
            inputs = adv_untargeted

            outputs = net(inputs)
            _, predicted = outputs.max(1)
            total += targets.size(0)
            correct += predicted.eq(targets).sum().item()
    return 100. * correct / total


test(0)
