# source: synthetic
# family: F
# pitfall: policy-gradient loss is the per-step vector -log_prob * return and is backpropagated without summing/averaging
# expect: line 24 — policy_loss has one entry per time step; backward() on it needs a scalar (or an explicit gradient)

import torch
import torch.nn as nn
from torch.distributions import Categorical

policy = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)


def finish_episode(states, actions, rewards, gamma=0.99):
    returns, R = [], 0.0
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    log_probs = Categorical(logits=policy(states)).log_prob(actions)
    policy_loss = -log_probs * returns
    opt.zero_grad()
    policy_loss.backward()
    opt.step()


finish_episode(torch.randn(20, 4), torch.randint(0, 2, (20,)), [1.0] * 20)
