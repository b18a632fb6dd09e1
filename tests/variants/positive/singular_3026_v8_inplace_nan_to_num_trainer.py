# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: entropy sanitised in place with .nan_to_num_(0.0) inside a Trainer's loss method; the gradient is still NaN
# expect: line 21 — plogp.nan_to_num_(0.0) in place
# checked: ran (torch 2.13 CPU), reproduces (NaN in policy.weight.grad)

import torch
from torch import nn


class PPOTrainer:
    def __init__(self, policy):
        self.policy = policy
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)

    def entropy(self, logits):
        logp = torch.log_softmax(logits, dim=-1)
        plogp = logp.exp() * logp
        plogp.nan_to_num_(0.0)
        return -plogp.sum(-1)

    def step(self, obs, illegal):
        logits = self.policy(obs).masked_fill(illegal, float("-inf"))
        loss = -self.entropy(logits).mean()
        self.optimizer.zero_grad()
        loss.backward()
        print(torch.isnan(self.policy.weight.grad).any().item())
        self.optimizer.step()


trainer = PPOTrainer(nn.Linear(4, 3))
trainer.step(torch.randn(2, 4), torch.tensor([[False, False, True], [False, False, False]]))
