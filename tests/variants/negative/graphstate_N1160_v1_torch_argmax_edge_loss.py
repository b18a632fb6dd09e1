# source: variant of 1160_hairmatte_image_gradient_loss_argmax.py
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# negative: fixed twin: a smooth surrogate (softmax / soft-argmax / straight-through / masked blend) keeps a gradient path
# expect: no finding
# checked: ran, no error (edge term requires_grad: True)
import torch
import torch.nn as nn
import torch.nn.functional as F


class EdgeLoss(nn.Module):
    def __init__(self):
        super().__init__()
        k = torch.tensor([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]])
        self.register_buffer("kx", k.view(1, 1, 3, 3))
        self.register_buffer("ky", k.t().contiguous().view(1, 1, 3, 3))

    def forward(self, logits, target):
        hard = torch.softmax(logits, dim=1)[:, 1:2]
        gt = target.unsqueeze(1).float()
        ex = F.conv2d(hard, self.kx) - F.conv2d(gt, self.kx)
        ey = F.conv2d(hard, self.ky) - F.conv2d(gt, self.ky)
        return (ex.abs() + ey.abs()).mean()


net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1))
image = torch.rand(2, 3, 16, 16)
mask = (torch.rand(2, 16, 16) > 0.5).long()
edge_loss = EdgeLoss()(net(image), mask)
print("edge term requires_grad:", edge_loss.requires_grad)
edge_loss.backward()
