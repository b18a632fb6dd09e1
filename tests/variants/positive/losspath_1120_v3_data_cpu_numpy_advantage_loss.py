# source: variant of 1120_release_rl_loss_numpy_log_prob.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: an actor update function computes the surrogate from log_probs.data.cpu().numpy() times the advantages, then turns the NumPy result back into a tensor for backward; the actor receives no gradient
# expect: line 17 — log_probs.data.cpu().numpy() leaves autograd; the surrogate loss is a constant for the actor
# checked: ran, reproduces (the actor's gradients are None after backward)

import numpy as np
import torch
import torch.nn as nn


def update_actor(actor, optimizer, states, actions, advantages):
    dist = torch.distributions.Categorical(logits=actor(states))
    log_probs = dist.log_prob(actions)
    surrogate = -np.mean(log_probs.data.cpu().numpy() * advantages)
    loss = torch.tensor(surrogate, requires_grad=True)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


actor = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(actor.parameters())
update_actor(actor, opt, torch.randn(8, 4), torch.randint(0, 2, (8,)), np.random.randn(8))
print([p.grad for p in actor.parameters()])
