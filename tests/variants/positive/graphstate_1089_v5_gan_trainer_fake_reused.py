# source: variant of 1089_sam_second_pass_reuses_output.py
# framework: torch
# family: C
# kind: backward-twice
# pitfall: GAN trainer with self.netG/self.netD: the discriminator step backprops through the non-detached fake (freeing netG's graph), then the generator step backprops through the same fake again
# expect: line 33 — errG.backward() goes through netG's graph of `fake`, already freed by errD.backward()
# checked: ran, reproduces (RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate value)
import torch
import torch.nn as nn


class GANTrainer:
    def __init__(self, nz=8):
        self.nz = nz
        self.netG = nn.Sequential(nn.Linear(nz, 16), nn.Tanh())
        self.netD = nn.Sequential(nn.Linear(16, 1))
        self.criterion = nn.BCEWithLogitsLoss()
        self.optD = torch.optim.Adam(self.netD.parameters(), lr=2e-4)
        self.optG = torch.optim.Adam(self.netG.parameters(), lr=2e-4)

    def step(self, real):
        b = real.size(0)
        ones, zeros = torch.ones(b, 1), torch.zeros(b, 1)
        fake = self.netG(torch.randn(b, self.nz))

        self.netD.zero_grad()
        errD = self.criterion(self.netD(real), ones) + self.criterion(self.netD(fake), zeros)
        errD.backward()
        self.optD.step()

        self.netG.zero_grad()
        errG = self.criterion(self.netD(fake), ones)
        errG.backward()
        self.optG.step()


GANTrainer().step(torch.randn(4, 16))
