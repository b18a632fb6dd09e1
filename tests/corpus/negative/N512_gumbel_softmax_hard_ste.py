# source: https://pytorch.org/docs/stable/generated/torch.nn.functional.gumbel_softmax.html
# family: E
# negative: discrete codes chosen with argmax but trained through a straight-through estimator (hard one-hot minus detached soft sample plus soft sample)
# mimics: argmax on the only path from the model to the loss
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

encoder = nn.Linear(32, 16)
codebook = nn.Linear(16, 32, bias=False)
opt = torch.optim.Adam([*encoder.parameters(), *codebook.parameters()], lr=1e-3)


def st_one_hot(logits, tau=1.0):
    soft = F.softmax((logits + -torch.log(-torch.log(torch.rand_like(logits)))) / tau, dim=-1)
    hard = F.one_hot(soft.argmax(-1), logits.size(-1)).float()
    return hard - soft.detach() + soft


for step in range(100):
    x = torch.randn(64, 32)
    code = st_one_hot(encoder(x))
    loss = F.mse_loss(codebook(code), x)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert encoder.weight.grad.abs().sum() > 0
