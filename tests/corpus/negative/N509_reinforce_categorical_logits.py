# source: https://github.com/pytorch/examples/blob/main/reinforcement_learning/reinforce.py
# family: E
# negative: REINFORCE takes log-probabilities from Categorical(logits=...) and F.log_softmax, both computed stably from raw logits
# mimics: log of softmax probabilities in a policy-gradient loss
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

policy = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 6))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)


def update(states, actions, returns, beta=0.01):
    logits = policy(states)
    log_probs = Categorical(logits=logits).log_prob(actions)
    entropy = -(F.softmax(logits, -1) * F.log_softmax(logits, -1)).sum(-1).mean()
    loss = -(log_probs * returns).sum() - beta * entropy
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


update(torch.randn(50, 4) * 100, torch.randint(0, 6, (50,)), torch.randn(50))
assert all(torch.isfinite(p.grad).all() for p in policy.parameters())
