# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: illegal actions filled with the dtype's min instead of -inf; no NaN to clean
# mimics: 3026_v8_inplace_nan_to_num_trainer.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
from torch import nn


class PPOTrainer:
    def __init__(self, policy):
        self.policy = policy
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)

    def entropy(self, logits):
        logp = torch.log_softmax(logits, dim=-1)
        plogp = logp.exp() * logp

        return -plogp.sum(-1)

    def step(self, obs, illegal):
        logits = self.policy(obs).masked_fill(illegal, torch.finfo(torch.float32).min)
        loss = -self.entropy(logits).mean()
        self.optimizer.zero_grad()
        loss.backward()
        print(torch.isnan(self.policy.weight.grad).any().item())
        self.optimizer.step()


trainer = PPOTrainer(nn.Linear(4, 3))
trainer.step(torch.randn(2, 4), torch.tensor([[False, False, True], [False, False, False]]))
