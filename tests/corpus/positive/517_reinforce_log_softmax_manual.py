# source: https://github.com/pytorch/examples/blob/main/reinforcement_learning/reinforce.py
# family: E
# pitfall: REINFORCE computes log-probabilities as torch.log(F.softmax(logits, dim=-1)) on a policy with large logits
# expect: line 16 — softmax underflows to exactly 0 for unlikely actions: log gives -inf and the policy gradient becomes NaN/inf; use F.log_softmax or Categorical(logits=...)

import torch
import torch.nn as nn
import torch.nn.functional as F

policy = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 6))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)


def update(states, actions, returns):
    logits = policy(states)
    log_probs = torch.log(F.softmax(logits, dim=-1))
    chosen = log_probs.gather(1, actions.unsqueeze(1)).squeeze(1)
    loss = -(chosen * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


update(torch.randn(50, 4) * 100, torch.randint(0, 6, (50,)), torch.randn(50))  # unnormalised observations
