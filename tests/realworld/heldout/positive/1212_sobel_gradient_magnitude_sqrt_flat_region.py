# source: https://github.com/chaddy1004/sobel-operator-pytorch/issues/1
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: the Sobel module returns the gradient magnitude sqrt(Gx^2 + Gy^2); on any flat image region both responses are 0 and backpropagating through torch.sqrt(0) gives NaN (the issue asks for an epsilon under the square root)
# expect: line 28 — torch.sqrt(x) of a sum of squares that is 0 wherever the image is locally constant
# checked: ran, reproduces (NaN in the input gradient for an image with a flat patch); model.py verbatim, used as an edge loss on a generated image

from torch import nn
import torch


class Sobel(nn.Module):
    def __init__(self):
        super().__init__()
        self.filter = nn.Conv2d(in_channels=1, out_channels=2, kernel_size=3, stride=1, padding=0, bias=False)

        Gx = torch.tensor([[2.0, 0.0, -2.0], [4.0, 0.0, -4.0], [2.0, 0.0, -2.0]])
        Gy = torch.tensor([[2.0, 4.0, 2.0], [0.0, 0.0, 0.0], [-2.0, -4.0, -2.0]])
        G = torch.cat([Gx.unsqueeze(0), Gy.unsqueeze(0)], 0)
        G = G.unsqueeze(1)
        self.filter.weight = nn.Parameter(G, requires_grad=False)

    def forward(self, img):
        x = self.filter(img)
        x = torch.mul(x, x)
        x = torch.sum(x, dim=1, keepdim=True)
        x = torch.sqrt(x)
        return x


sobel = Sobel()
generated = torch.rand(1, 1, 16, 16)
generated[..., :8, :8] = 0.5  # a flat patch
generated.requires_grad_(True)
target = torch.rand(1, 1, 16, 16)
edge_loss = nn.functional.l1_loss(sobel(generated), sobel(target))
edge_loss.backward()
print('NaN in gradient:', torch.isnan(generated.grad).any().item())
