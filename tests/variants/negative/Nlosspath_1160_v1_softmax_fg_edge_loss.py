# source: variant of 1160_hairmatte_image_gradient_loss_argmax.py
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# negative: fixed twin: the edge loss uses the soft foreground probability pred.softmax(1)[:, 1:2]
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn
import torch.nn.functional as F


class EdgeConsistencyLoss(nn.Module):
    def __init__(self):
        super().__init__()
        kx = torch.tensor([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]]).view(1, 1, 3, 3)
        self.register_buffer("kx", kx)
        self.register_buffer("ky", kx.transpose(2, 3).contiguous())

    def forward(self, pred, gray):
        mask = pred.softmax(dim=1)[:, 1:2]
        g_x, g_y = F.conv2d(mask, self.kx), F.conv2d(mask, self.ky)
        i_x, i_y = F.conv2d(gray, self.kx), F.conv2d(gray, self.ky)
        mag = torch.sqrt(g_x ** 2 + g_y ** 2 + 1e-6)
        return (mag * (1 - (i_x * g_x + i_y * g_y) ** 2)).sum() / mag.sum()


net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1))
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
ce = nn.CrossEntropyLoss()
edge = EdgeConsistencyLoss()
image = torch.rand(2, 3, 32, 32)
gray = image.mean(1, keepdim=True)
target = (torch.rand(2, 32, 32) > 0.5).long()
pred = net(image)
edge_loss = edge(pred, gray)
loss = ce(pred, target) + 0.5 * edge_loss
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(edge_loss.requires_grad)
