# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: entropy term sanitised by boolean-mask assignment ent[torch.isnan(ent)] = 0 (a policy loss method); the NaN gradient of 0 * log(0) remains
# expect: line 22 — ent[torch.isnan(ent)] = 0.0 after p * log p
# checked: ran (torch 2.13 CPU), reproduces (NaN in pi.head.weight.grad)

import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 3)

    def entropy_bonus(self, obs, action_mask):
        logits = self.head(obs).masked_fill(~action_mask, float("-inf"))
        p = logits.softmax(-1)
        ent = -(p * p.log())
        ent[torch.isnan(ent)] = 0.0
        return ent.sum(-1).mean()


pi = Policy()
mask = torch.tensor([[True, True, False], [True, True, True]])
pi.entropy_bonus(torch.randn(2, 4), mask).backward()
print(torch.isnan(pi.head.weight.grad).any().item())
