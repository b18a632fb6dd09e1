# source: https://github.com/1Konny/FactorVAE/issues/15
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the fix: the discriminator loss is computed on a fresh D(z.detach()) after the VAE step, so it neither reaches the VAE's updated weights nor loses D's gradient on the real term (a bare D_z.detach() would starve D of that term)
# expect: no finding
# checked: ran (torch 2.13 CPU), runs clean, exit 0
# (reduced: Solver keeps only the models, optimizers and the loss/update part of train(); Discriminator has 3 instead of
#  6 linear layers; size_average=False written as reduction="sum"; data are random 64x64 images)
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init
import torch.optim as optim


def recon_loss(x, x_recon):
    n = x.size(0)
    loss = F.binary_cross_entropy_with_logits(x_recon, x, reduction='sum').div(n)
    return loss


def kl_divergence(mu, logvar):
    kld = -0.5*(1+logvar-mu**2-logvar.exp()).sum(1).mean()
    return kld


def permute_dims(z):
    assert z.dim() == 2

    B, _ = z.size()
    perm_z = []
    for z_j in z.split(1, 1):
        perm = torch.randperm(B).to(z.device)
        perm_z_j = z_j[perm]
        perm_z.append(perm_z_j)

    return torch.cat(perm_z, 1)


def normal_init(m):
    if isinstance(m, (nn.Linear, nn.Conv2d)):
        init.normal_(m.weight, 0, 0.02)
        if m.bias is not None:
            m.bias.data.fill_(0)


class Discriminator(nn.Module):
    def __init__(self, z_dim):
        super(Discriminator, self).__init__()
        self.z_dim = z_dim
        self.net = nn.Sequential(
            nn.Linear(z_dim, 1000),
            nn.LeakyReLU(0.2, True),
            nn.Linear(1000, 1000),
            nn.LeakyReLU(0.2, True),
            nn.Linear(1000, 2),
        )
        for block in self._modules:
            for m in self._modules[block]:
                normal_init(m)

    def forward(self, z):
        return self.net(z).squeeze()


class FactorVAE1(nn.Module):
    """Encoder and Decoder architecture for 2D Shapes data."""
    def __init__(self, z_dim=10):
        super(FactorVAE1, self).__init__()
        self.z_dim = z_dim
        self.encode = nn.Sequential(
            nn.Conv2d(1, 32, 4, 2, 1),
            nn.ReLU(True),
            nn.Conv2d(32, 32, 4, 2, 1),
            nn.ReLU(True),
            nn.Conv2d(32, 64, 4, 2, 1),
            nn.ReLU(True),
            nn.Conv2d(64, 64, 4, 2, 1),
            nn.ReLU(True),
            nn.Conv2d(64, 128, 4, 1),
            nn.ReLU(True),
            nn.Conv2d(128, 2*z_dim, 1)
        )
        self.decode = nn.Sequential(
            nn.Conv2d(z_dim, 128, 1),
            nn.ReLU(True),
            nn.ConvTranspose2d(128, 64, 4),
            nn.ReLU(True),
            nn.ConvTranspose2d(64, 64, 4, 2, 1),
            nn.ReLU(True),
            nn.ConvTranspose2d(64, 32, 4, 2, 1),
            nn.ReLU(True),
            nn.ConvTranspose2d(32, 32, 4, 2, 1),
            nn.ReLU(True),
            nn.ConvTranspose2d(32, 1, 4, 2, 1),
        )
        for block in self._modules:
            for m in self._modules[block]:
                normal_init(m)

    def reparametrize(self, mu, logvar):
        std = logvar.mul(0.5).exp_()
        eps = std.data.new(std.size()).normal_()
        return eps.mul(std).add_(mu)

    def forward(self, x, no_dec=False):
        stats = self.encode(x)
        mu = stats[:, :self.z_dim]
        logvar = stats[:, self.z_dim:]
        z = self.reparametrize(mu, logvar)

        if no_dec:
            return z.squeeze()
        else:
            x_recon = self.decode(z).view(x.size())
            return x_recon, mu, logvar, z.squeeze()


class Solver(object):
    def __init__(self, batch_size=8, z_dim=10, gamma=6.4):
        self.device = 'cpu'
        self.batch_size = batch_size
        self.gamma = gamma
        self.VAE = FactorVAE1(z_dim).to(self.device)
        self.optim_VAE = optim.Adam(self.VAE.parameters(), lr=1e-4, betas=(0.9, 0.999))
        self.D = Discriminator(z_dim).to(self.device)
        self.optim_D = optim.Adam(self.D.parameters(), lr=1e-4, betas=(0.5, 0.9))
        self.data_loader = [(torch.rand(batch_size, 1, 64, 64).round(), torch.rand(batch_size, 1, 64, 64).round())
                            for _ in range(2)]

    def train(self):
        ones = torch.ones(self.batch_size, dtype=torch.long, device=self.device)
        zeros = torch.zeros(self.batch_size, dtype=torch.long, device=self.device)

        for x_true1, x_true2 in self.data_loader:
            x_true1 = x_true1.to(self.device)
            x_recon, mu, logvar, z = self.VAE(x_true1)
            vae_recon_loss = recon_loss(x_true1, x_recon)
            vae_kld = kl_divergence(mu, logvar)

            D_z = self.D(z)
            vae_tc_loss = (D_z[:, :1] - D_z[:, 1:]).mean()

            vae_loss = vae_recon_loss + vae_kld + self.gamma*vae_tc_loss

            self.optim_VAE.zero_grad()
            vae_loss.backward(retain_graph=True)
            self.optim_VAE.step()

            x_true2 = x_true2.to(self.device)
            z_prime = self.VAE(x_true2, no_dec=True)
            z_pperm = permute_dims(z_prime).detach()
            D_z_pperm = self.D(z_pperm)
            D_z_real = self.D(z.detach())
            D_tc_loss = 0.5*(F.cross_entropy(D_z_real, zeros) + F.cross_entropy(D_z_pperm, ones))

            self.optim_D.zero_grad()
            D_tc_loss.backward()
            self.optim_D.step()
        print("train ok")


Solver().train()
