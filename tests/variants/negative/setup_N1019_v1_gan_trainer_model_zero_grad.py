# source: variant of 1019_idinvert_missing_optimizer_d_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: none — discriminator gradients cleared with self.D.zero_grad() (module, not optimizer)
# checked: ran, correct (D grads not accumulated)
import torch
import torch.nn as nn
import torch.nn.functional as F


class GANTrainer:
    def __init__(self, G, D, lr=2e-4):
        self.G, self.D = G, D
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=lr, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=lr, betas=(0.5, 0.999))

    def d_step(self, real, z):
        self.D.zero_grad()
        fake = self.G(z).detach()
        loss_d = F.softplus(-self.D(real)).mean() + F.softplus(self.D(fake)).mean()
        loss_d.backward()
        self.opt_d.step()
        return loss_d.item()

    def g_step(self, z):
        self.G.zero_grad()
        loss_g = F.softplus(-self.D(self.G(z))).mean()
        loss_g.backward()
        self.opt_g.step()
        return loss_g.item()

    def train_epoch(self, loader):
        for real in loader:
            z = torch.randn(real.size(0), 4)
            self.d_step(real, z)
            self.g_step(z)


if __name__ == "__main__":
    G = nn.Sequential(nn.Linear(4, 8))
    D = nn.Sequential(nn.Linear(8, 1))
    t = GANTrainer(G, D, lr=0.0)
    seen = []
    D[0].weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    real = torch.randn(4, 8)
    t.d_step(real, torch.zeros(4, 4)); t.d_step(real, torch.zeros(4, 4))
    print("equal:", torch.allclose(seen[1], seen[0]))
