# source: synthetic
# family: A
# pitfall: crowd-counting loss compares integer head counts obtained with int(density.sum().round()) in a list comprehension
# expect: line 14 — int() inside the comprehension turns the predicted counts into Python ints; the density network gets no gradient

import torch
import torch.nn as nn

density_net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1), nn.ReLU())
opt = torch.optim.Adam(density_net.parameters(), lr=1e-4)


def count_loss(density, gt_counts):
    pred_counts = [int(d.sum().round()) for d in density]
    err = [(p - g) ** 2 for p, g in zip(pred_counts, gt_counts.tolist())]
    return torch.tensor(err, dtype=torch.float32, requires_grad=True).mean()


if __name__ == "__main__":
    for it in range(50):
        images = torch.rand(4, 3, 96, 96)
        gt = torch.randint(0, 300, (4,))
        loss = count_loss(density_net(images), gt)
        opt.zero_grad()
        loss.backward()
        opt.step()
