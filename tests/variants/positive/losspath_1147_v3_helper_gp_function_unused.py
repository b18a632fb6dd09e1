# source: variant of 1147_gan1d_gradient_penalty_never_added.py
# framework: torch
# family: A
# kind: other-loss-term-not-in-backward
# pitfall: the gradient penalty lives in a compute_gradient_penalty helper (create_graph=True, as in the PyTorch-GAN WGAN-GP example); the training loop calls it but the critic loss leaves it out
# expect: line 37 — d_loss omits gradient_penalty, computed on the line above and never used; the critic is trained without the penalty
# checked: ran, reproduces (runs silently; the loss that is backpropagated does not contain the penalty term, so gradients are the same as without computing it)

import torch
import torch.nn as nn
import torch.autograd as autograd


def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand(real_samples.size(0), 1)
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.shape[0], 1)
    gradients = autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake,
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


generator = nn.Linear(4, 8)
discriminator = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=1e-4, betas=(0.5, 0.999))
lambda_gp = 10

for i in range(2):
    real_imgs = torch.randn(6, 8)
    z = torch.randn(6, 4)
    optimizer_D.zero_grad()
    fake_imgs = generator(z)
    real_validity = discriminator(real_imgs)
    fake_validity = discriminator(fake_imgs.detach())
    gradient_penalty = compute_gradient_penalty(discriminator, real_imgs.data, fake_imgs.data)
    d_loss = -torch.mean(real_validity) + torch.mean(fake_validity)
    d_loss.backward()
    optimizer_D.step()
