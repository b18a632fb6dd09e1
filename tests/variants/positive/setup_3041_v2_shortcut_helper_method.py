# source: variant of 3041_irb_conv_in_forward.py
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: the 1x1 projection shortcut is built in a helper method _shortcut() that forward() calls on every pass: a new random, unregistered conv each call
# expect: line 20 — nn.Conv2d(...) constructed in _shortcut(), called from forward()
# checked: ran, reproduces (layer not in parameters(); eval forward non-deterministic / weights unchanged by step)
import torch
import torch.nn as nn


class ResBlock(nn.Module):
    def __init__(self, in_c, out_c):
        super().__init__()
        self.in_c, self.out_c = in_c, out_c
        self.body = nn.Sequential(nn.Conv2d(in_c, out_c, 3, padding=1), nn.BatchNorm2d(out_c), nn.ReLU())

    def _shortcut(self, x):
        if self.in_c != self.out_c:
            return nn.Conv2d(self.in_c, self.out_c, kernel_size=1, bias=False)(x)
        return x

    def forward(self, x):
        return self.body(x) + self._shortcut(x)


if __name__ == "__main__":
    m = ResBlock(4, 8).eval()
    x = torch.randn(1, 4, 6, 6)
    print("deterministic:", torch.equal(m(x), m(x)), "n params:", len(list(m.parameters())))
