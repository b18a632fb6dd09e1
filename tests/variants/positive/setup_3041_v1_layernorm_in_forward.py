# source: variant of 3041_irb_conv_in_forward.py
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: a LayerNorm (with affine weight/bias) is instantiated inside forward() to match the runtime feature size, so its parameters are fresh, unregistered and never trained
# expect: line 21 — nn.LayerNorm(...) constructed and called inside forward()
# checked: ran, reproduces (layer not in parameters(); eval forward non-deterministic / weights unchanged by step)
import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, in_dim, n_classes):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, 16)
        self.fc2 = nn.Linear(16, n_classes)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        h = nn.LayerNorm(h.shape[-1])(h)
        return self.fc2(h)


if __name__ == "__main__":
    model = Head(8, 3)
    print("n params:", len(list(model.parameters())), "(no LayerNorm weight/bias)")
