# source: variant of 1147_gan1d_gradient_penalty_never_added.py
# framework: torch
# family: A
# kind: other-loss-term-not-in-backward
# negative: fixed twin: the R1 penalty is added to the discriminator loss
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn
import torch.nn.functional as F


def d_step(D, G, opt_d, real_img, z, r1_gamma=10.0):
    real_img = real_img.requires_grad_(True)
    real_pred = D(real_img)
    fake_pred = D(G(z).detach())
    grad_real, = torch.autograd.grad(outputs=real_pred.sum(), inputs=real_img, create_graph=True)
    r1_penalty = r1_gamma / 2 * grad_real.pow(2).reshape(grad_real.shape[0], -1).sum(1).mean()
    d_loss = F.softplus(fake_pred).mean() + F.softplus(-real_pred).mean() + r1_penalty
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    return d_loss


D = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 1))
G = nn.Sequential(nn.Linear(4, 3 * 8 * 8), nn.Unflatten(1, (3, 8, 8)))
d_step(D, G, torch.optim.Adam(D.parameters()), torch.randn(2, 3, 8, 8), torch.randn(2, 4))
