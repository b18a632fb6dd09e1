# source: variant of 3041_irb_conv_in_forward.py
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: none — only parameter-free modules (ReLU, Softmax, MaxPool) are instantiated in forward; the shortcut conv lives in __init__
# checked: ran, correct (deterministic in eval, all weights registered)
import torch
import torch.nn as nn


class ResBlock(nn.Module):
    def __init__(self, in_c, out_c):
        super().__init__()
        self.body = nn.Conv2d(in_c, out_c, 3, padding=1)
        self.shortcut = nn.Conv2d(in_c, out_c, 1, bias=False) if in_c != out_c else nn.Identity()

    def forward(self, x):
        h = nn.ReLU()(self.body(x)) + self.shortcut(x)
        h = nn.MaxPool2d(2)(h)
        return nn.Softmax(dim=1)(h)


if __name__ == "__main__":
    m = ResBlock(4, 8).eval()
    x = torch.randn(1, 4, 6, 6)
    print("deterministic:", torch.equal(m(x), m(x)), len(list(m.parameters())))
