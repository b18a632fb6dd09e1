# source: variant of 1120_release_rl_loss_numpy_log_prob.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: a REINFORCE trainer accumulates the policy loss from log_prob.item() (to "fix" a device error), then rewraps the float with torch.tensor(..., requires_grad=True); the loss no longer depends on the policy, every gradient is None
# expect: line 34 — log_prob.item() turns the log-probability into a Python float; the policy loss has nothing to propagate to the policy
# checked: ran, reproduces (all policy gradients are None after backward)

import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))

    def forward(self, obs):
        return torch.distributions.Categorical(logits=self.net(obs))


class ReinforceTrainer:
    def __init__(self, policy, gamma=0.99):
        self.policy = policy
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
        self.gamma = gamma

    def update(self, episode):
        policy_loss = 0.0
        ret = 0.0
        for obs, action, reward in reversed(episode):
            ret = reward + self.gamma * ret
            log_prob = self.policy(obs).log_prob(action)
            policy_loss -= log_prob.item() * ret
        policy_loss = torch.tensor(policy_loss, requires_grad=True)
        self.optimizer.zero_grad()
        policy_loss.backward()
        self.optimizer.step()
        return policy_loss.item()


trainer = ReinforceTrainer(Policy())
episode = [(torch.randn(4), torch.tensor(1), 1.0) for _ in range(5)]
trainer.update(episode)
print([p.grad for p in trainer.policy.parameters()])
