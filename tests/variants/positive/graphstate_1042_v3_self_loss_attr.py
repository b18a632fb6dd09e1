# source: variant of 1042_racnn_rank_loss_vector_backward.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: pix2pix-style model class keeps the loss on self (self.loss_G) and calls self.loss_G.backward() in backward_G(); the criterion was built with reduction="none"
# expect: line 26 — self.loss_G.backward() on a per-pixel loss tensor
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)
import torch
import torch.nn as nn


class Model:
    def __init__(self):
        self.netG = nn.Conv2d(3, 3, 3, padding=1)
        self.criterionL1 = nn.L1Loss(reduction="none")
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4)

    def set_input(self, a, b):
        self.real_A, self.real_B = a, b

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_G(self):
        self.loss_G = self.criterionL1(self.fake_B, self.real_B) * 100.0
        self.loss_G.backward()

    def optimize_parameters(self):
        self.forward()
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()


m = Model()
m.set_input(torch.rand(1, 3, 8, 8), torch.rand(1, 3, 8, 8))
m.optimize_parameters()
