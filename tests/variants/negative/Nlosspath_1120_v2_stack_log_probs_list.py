# source: variant of 1120_release_rl_loss_numpy_log_prob.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# negative: fixed twin: the terms stay tensors and are combined with torch.stack(...).sum()
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn
import torch.nn.functional as F

policy = nn.Linear(4, 3)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)


def select_action(state):
    probs = F.softmax(policy(state), dim=-1)
    action = torch.multinomial(probs, 1).item()
    return action, torch.log(probs[action])


def finish_episode(log_probs, rewards, gamma=0.99):
    R = 0.0
    returns = []
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    terms = []
    for log_prob, R in zip(log_probs, returns):
        terms.append(-log_prob * R)
    loss = torch.stack(terms).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


log_probs, rewards = [], []
for t in range(6):
    a, lp = select_action(torch.randn(4))
    log_probs.append(lp)
    rewards.append(1.0)
finish_episode(log_probs, rewards)
print([p.grad for p in policy.parameters()])
