# source: https://github.com/yunjey/pytorch-tutorial/issues/56
# framework: torch
# family: C
# kind: backward-twice
# negative: the discriminator step uses G(z) without detach, but the gradients are reset before the generator step and the generator step draws new fake images, so no graph is backpropagated twice and only the right network is updated by each optimizer
# mimics: a GAN discriminator step on non-detached generator output
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn

latent_size, hidden_size, image_size = 8, 16, 32
batch_size = 4
D = nn.Sequential(nn.Linear(image_size, hidden_size), nn.LeakyReLU(0.2), nn.Linear(hidden_size, 1), nn.Sigmoid())
G = nn.Sequential(nn.Linear(latent_size, hidden_size), nn.ReLU(), nn.Linear(hidden_size, image_size), nn.Tanh())
criterion = nn.BCELoss()
d_optimizer = torch.optim.Adam(D.parameters(), lr=0.0002)
g_optimizer = torch.optim.Adam(G.parameters(), lr=0.0002)


def reset_grad():
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()


data_loader = [torch.randn(batch_size, image_size) for _ in range(2)]
for i, images in enumerate(data_loader):
    real_labels = torch.ones(batch_size, 1)
    fake_labels = torch.zeros(batch_size, 1)

    # Train the discriminator
    outputs = D(images)
    d_loss_real = criterion(outputs, real_labels)

    z = torch.randn(batch_size, latent_size)
    fake_images = G(z)
    outputs = D(fake_images)
    d_loss_fake = criterion(outputs, fake_labels)

    d_loss = d_loss_real + d_loss_fake
    reset_grad()
    d_loss.backward()
    d_optimizer.step()

    # Train the generator
    z = torch.randn(batch_size, latent_size)
    fake_images = G(z)
    outputs = D(fake_images)
    g_loss = criterion(outputs, real_labels)

    reset_grad()
    g_loss.backward()
    g_optimizer.step()
