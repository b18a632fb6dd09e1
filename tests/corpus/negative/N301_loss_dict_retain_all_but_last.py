# source: https://discuss.pytorch.org/t/how-to-use-the-backward-functions-for-multiple-losses/1826
# family: C
# negative: several task losses over a shared encoder are backpropagated one by one; retain_graph is True for every call except the last
# mimics: multiple .backward() calls on losses sharing a trunk
# expect: no finding

import torch
from torch import nn

encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU())
heads = nn.ModuleDict({"a": nn.Linear(64, 1), "b": nn.Linear(64, 1), "c": nn.Linear(64, 1)})
opt = torch.optim.Adam([*encoder.parameters(), *heads.parameters()], lr=1e-3)

for step in range(50):
    feat = encoder(torch.randn(16, 32))
    losses = {k: (head(feat) - i).pow(2).mean() for i, (k, head) in enumerate(heads.items())}
    opt.zero_grad()
    names = list(losses)
    for i, name in enumerate(names):
        losses[name].backward(retain_graph=i < len(names) - 1)
    opt.step()
