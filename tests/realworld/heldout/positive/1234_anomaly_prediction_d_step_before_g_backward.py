# source: https://github.com/feiyuhuahuo/Anomaly_Prediction/issues/11
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the generator loss G_l_t includes the adversarial term adversarial_loss(discriminator(G_frame)), but the discriminator is updated first: optimizer_D.step() changes the discriminator weights in place before G_l_t.backward() needs them (an error since PyTorch 1.5)
# expect: line 65 — optimizer_D.step() modifies discriminator parameters saved in the graph of G_l_t; the answer and the author's fix (6295f5d) call .step() only after both backward passes
# checked: ran, reproduces (RuntimeError: ... modified by an inplace operation ... is at version 2; expected version 1); train.py at 779ced0 reduced (small UNet/PixelDiscriminator stand-ins, the optical-flow loss dropped, random clips, no logging/validation/checkpoints, .cuda() dropped)

import torch
import torch.nn as nn


class Intensity_Loss(nn.Module):
    def forward(self, gen_frames, gt_frames):
        return torch.mean(torch.abs((gen_frames - gt_frames) ** 2))


class Gradient_Loss(nn.Module):
    def forward(self, gen_frames, gt_frames):
        gen_dx = torch.abs(gen_frames[..., 1:] - gen_frames[..., :-1])
        gt_dx = torch.abs(gt_frames[..., 1:] - gt_frames[..., :-1])
        return torch.mean(torch.abs(gen_dx - gt_dx))


class Adversarial_Loss(nn.Module):
    def forward(self, fake_outputs):
        return torch.mean((fake_outputs - 1) ** 2 / 2)


class Discriminate_Loss(nn.Module):
    def forward(self, real_outputs, fake_outputs):
        return torch.mean((real_outputs - 1) ** 2 / 2) + torch.mean(fake_outputs ** 2 / 2)


generator = nn.Sequential(nn.Conv2d(12, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1), nn.Tanh())
discriminator = nn.Sequential(nn.Conv2d(3, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 4, padding=1))
optimizer_G = torch.optim.Adam(generator.parameters(), lr=0.0002)
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=0.00002)

adversarial_loss = Adversarial_Loss()
discriminate_loss = Discriminate_Loss()
gradient_loss = Gradient_Loss()
intensity_loss = Intensity_Loss()

generator = generator.train()
discriminator = discriminator.train()

train_dataloader = [torch.rand(2, 15, 32, 32) * 2 - 1 for _ in range(2)]
for clips in train_dataloader:
    input_frames = clips[:, 0:12, :, :]  # (n, 12, 256, 256)
    target_frame = clips[:, 12:15, :, :]  # (n, 3, 256, 256)

    G_frame = generator(input_frames)

    inte_l = intensity_loss(G_frame, target_frame)
    grad_l = gradient_loss(G_frame, target_frame)
    g_l = adversarial_loss(discriminator(G_frame))
    G_l_t = 1. * inte_l + 1. * grad_l + 0.05 * g_l

    # Train discriminator
    # When training discriminator, don't train generator, so use .detach() to cut off gradients.
    D_l = discriminate_loss(discriminator(target_frame), discriminator(G_frame.detach()))
    optimizer_D.zero_grad()
    D_l.backward()
    optimizer_D.step()

    # Train generator
    optimizer_G.zero_grad()
    G_l_t.backward()
    optimizer_G.step()
