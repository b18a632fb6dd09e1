# source: https://github.com/lafith/Mobile-UNet/issues/1
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: A 1x1 Conv2d for the skip connection is constructed inside forward(), so a freshly initialised, never-trained layer is used on every call.
# expect: line 66 — nn.Conv2d(...) constructed and called inside forward() (conditional branch)
# checked: ran, reproduces (eval-mode forward is non-deterministic; layer not in parameters)
# Mobile UNet and Inverted Residual Block
# Author: Lafith Mattara
# Date: July 2022


import torch
import torch.nn as nn

class InvertedResidualBlock(nn.Module):
    """
    inverted residual block used in MobileNetV2
    """
    def __init__(self, in_c, out_c, stride, expansion_factor=6, deconvolve=False):
        super(InvertedResidualBlock, self).__init__()
        # check stride value
        assert stride in [1, 2]
        self.stride = stride
        self.in_c = in_c
        self.out_c = out_c
        # Skip connection if stride is 1
        self.use_skip_connection = True if self.stride == 1 else False

        # expansion factor or t as mentioned in the paper
        ex_c = int(self.in_c * expansion_factor)
        if deconvolve:
            self.conv = nn.Sequential(
                # pointwise convolution
                nn.Conv2d(self.in_c, ex_c, 1, 1, 0, bias=False),
                nn.BatchNorm2d(ex_c),
                nn.ReLU6(inplace=True),
                # depthwise convolution
                nn.ConvTranspose2d(ex_c, ex_c, 4,self.stride,1, groups=ex_c, bias=False),
                nn.BatchNorm2d(ex_c),
                nn.ReLU6(inplace=True),
                # pointwise convolution
                nn.Conv2d(ex_c, self.out_c, 1, 1, 0, bias=False),
                nn.BatchNorm2d(self.out_c),
            )
        else:
            self.conv = nn.Sequential(
                # pointwise convolution
                nn.Conv2d(self.in_c, ex_c, 1, 1, 0, bias=False),
                nn.BatchNorm2d(ex_c),
                nn.ReLU6(inplace=True),
                # depthwise convolution
                nn.Conv2d(ex_c, ex_c, 3, self.stride, 1, groups=ex_c, bias=False),
                nn.BatchNorm2d(ex_c),
                nn.ReLU6(inplace=True),
                # pointwise convolution
                nn.Conv2d(ex_c, self.out_c, 1, 1, 0, bias=False),
                nn.BatchNorm2d(self.out_c),
            )
            

    def forward(self, x):
        if self.use_skip_connection:
            out = self.conv(x)
            if self.in_c != self.out_c:
                x = nn.Conv2d(self.in_c, self.out_c, 1, 1, 0, bias=False)(x)
            return x+out
        else:
            return self.conv(x)


if __name__ == "__main__":
    # stub training loop (the repo only ships the model)
    model = InvertedResidualBlock(4, 8, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(2, 4, 8, 8)
    for _ in range(3):
        optimizer.zero_grad()
        out = model(x)
        loss = out.pow(2).mean()
        loss.backward()
        optimizer.step()
    print("n params:", sum(p.numel() for p in model.parameters()))
    print("deterministic forward (eval):", torch.equal(model.eval()(x), model.eval()(x)))
