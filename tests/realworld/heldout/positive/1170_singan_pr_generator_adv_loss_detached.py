# source: https://github.com/tamarott/SinGAN/pull/117
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: to silence the PyTorch 1.6 in-place error in the generator loop, the PR feeds netD(fake.detach()) into the generator's adversarial loss; the reviewers point out that the detached fake cuts errG off from netG, so only the reconstruction loss still trains the generator
# expect: line 87 — output = netD(fake.detach()) in the generator step: errG.backward() no longer reaches netG ("if use fake.detach(), netG will not update anymore")
# checked: ran, reproduces (no error, but the adversarial loss gives netG no gradient); SinGAN train_single_scale with the PR's change, reduced to the single-scale path, models replaced by small stand-ins (reconstructed)
import torch
import torch.nn as nn
import torch.optim as optim
from types import SimpleNamespace


class GeneratorConcatSkip2CleanAdd(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(32, 3, 3, padding=1), nn.Tanh())

    def forward(self, x, y):
        return self.body(x) + y


class WDiscriminator(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(32, 1, 3, padding=1))

    def forward(self, x):
        return self.body(x)


def calc_gradient_penalty(netD, real_data, fake_data, LAMBDA):
    alpha = torch.rand(1, 1)
    alpha = alpha.expand(real_data.size())
    interpolates = alpha * real_data + ((1 - alpha) * fake_data)
    interpolates = torch.autograd.Variable(interpolates, requires_grad=True)
    disc_interpolates = netD(interpolates)
    gradients = torch.autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                              grad_outputs=torch.ones(disc_interpolates.size()),
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    gradient_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA
    return gradient_penalty


def train_single_scale(netD, netG, real, opt):
    optimizerD = optim.Adam(netD.parameters(), lr=opt.lr_d, betas=(opt.beta1, 0.999))
    optimizerG = optim.Adam(netG.parameters(), lr=opt.lr_g, betas=(opt.beta1, 0.999))
    alpha = opt.alpha
    z_opt = torch.randn_like(real)
    z_prev = torch.zeros_like(real)
    prev = torch.zeros_like(real)

    for epoch in range(opt.niter):
        noise_ = torch.randn_like(real)

        ############################
        # (1) Update D network: maximize D(x) + D(G(z))
        ###########################
        for j in range(opt.Dsteps):
            # train with real
            netD.zero_grad()

            output = netD(real).to(opt.device)
            errD_real = -output.mean()#-a
            errD_real.backward(retain_graph=True)
            D_x = -errD_real.item()

            noise = noise_
            fake = netG(noise.detach(),prev)
            output = netD(fake.detach())
            errD_fake = output.mean()
            errD_fake.backward(retain_graph=True)
            D_G_z = output.mean().item()

            gradient_penalty = calc_gradient_penalty(netD, real, fake, opt.lambda_grad)
            gradient_penalty.backward()

            errD = errD_real + errD_fake + gradient_penalty
            optimizerD.step()

        ############################
        # (2) Update G network: maximize D(G(z))
        ###########################

        for j in range(opt.Gsteps):
            netG.zero_grad()
            output = netD(fake.detach())
            #D_fake_map = output.detach()
            errG = -output.mean()
            errG.backward(retain_graph=True)
            if alpha!=0:
                loss = nn.MSELoss()
                Z_opt = opt.noise_amp*z_opt+z_prev
                rec_loss = alpha*loss(netG(Z_opt.detach(),z_prev),real)
                rec_loss.backward(retain_graph=True)
                rec_loss = rec_loss.detach()
            else:
                Z_opt = z_opt
                rec_loss = 0

            optimizerG.step()
    return z_opt, netG


opt = SimpleNamespace(lr_d=5e-4, lr_g=5e-4, beta1=0.5, alpha=10, niter=2, Dsteps=3, Gsteps=3,
                      lambda_grad=0.1, noise_amp=0.1, device=torch.device('cpu'))
real = torch.rand(1, 3, 25, 25) * 2 - 1
netD, netG = WDiscriminator(opt), GeneratorConcatSkip2CleanAdd(opt)
train_single_scale(netD, netG, real, opt)
