# source: https://github.com/Harry24k/adversarial-attacks-pytorch/issues/57
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: the PGD attack clones and detaches its inputs and re-detaches the adversarial images after every step on purpose; inside each step the loss is differentiated with respect to adv_images (requires_grad set before the forward), so the attack gradient is correct
# mimics: detach() and requires_grad toggling around a loss
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class PGD:
    def __init__(self, model, eps=8 / 255, alpha=2 / 255, steps=10, random_start=True):
        self.model = model
        self.eps = eps
        self.alpha = alpha
        self.steps = steps
        self.random_start = random_start
        self.device = torch.device("cpu")

    def forward(self, images, labels):
        images = images.clone().detach().to(self.device)
        labels = labels.clone().detach().to(self.device)

        loss = nn.CrossEntropyLoss()
        adv_images = images.clone().detach()

        if self.random_start:
            adv_images = adv_images + torch.empty_like(adv_images).uniform_(-self.eps, self.eps)
            adv_images = torch.clamp(adv_images, min=0, max=1).detach()

        for _ in range(self.steps):
            adv_images.requires_grad = True
            outputs = self.model(adv_images)
            cost = loss(outputs, labels)

            grad = torch.autograd.grad(cost, adv_images, retain_graph=False, create_graph=False)[0]

            adv_images = adv_images.detach() + self.alpha * grad.sign()
            delta = torch.clamp(adv_images - images, min=-self.eps, max=self.eps)
            adv_images = torch.clamp(images + delta, min=0, max=1).detach()

        return adv_images


model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 10))
atk = PGD(model)
adv = atk.forward(torch.rand(2, 3, 8, 8), torch.tensor([1, 2]))
