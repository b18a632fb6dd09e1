# source: https://github.com/isayev/ReLeaSE/issues/39
# framework: torch
# family: A
# kind: conversion-on-loss-path
# negative: the repository's original line, which the maintainer points back to: rl_loss accumulates the log-probability tensor itself, so rl_loss.backward() reaches the generator
# mimics: positive/1120_release_rl_loss_numpy_log_prob.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F


class StackAugmentedRNN(nn.Module):
    def __init__(self, n_characters=10, hidden_size=16):
        super().__init__()
        self.encoder = nn.Embedding(n_characters, hidden_size)
        self.rnn = nn.GRUCell(hidden_size, hidden_size)
        self.decoder = nn.Linear(hidden_size, n_characters)
        self.hidden_size = hidden_size
        self.optimizer = torch.optim.Adadelta(self.parameters(), lr=0.01)

    def init_hidden(self):
        return torch.zeros(1, self.hidden_size)

    def forward(self, inp, hidden):
        hidden = self.rnn(self.encoder(inp.view(1)), hidden)
        return self.decoder(hidden), hidden


class Reinforcement(object):
    def __init__(self, generator, get_reward):
        self.generator = generator
        self.get_reward = get_reward

    def policy_gradient(self, trajectories, n_batch=2, gamma=0.97, grad_clipping=None):
        rl_loss = 0
        self.generator.optimizer.zero_grad()
        total_reward = 0
        for trajectory_input in trajectories[:n_batch]:
            reward = self.get_reward(trajectory_input)
            discounted_reward = reward
            total_reward += reward
            hidden = self.generator.init_hidden()
            for p in range(len(trajectory_input) - 1):
                output, hidden = self.generator(trajectory_input[p], hidden)
                log_probs = F.log_softmax(output, dim=1)
                top_i = trajectory_input[p + 1]
                rl_loss -= (log_probs[0, top_i] * discounted_reward)
                discounted_reward = discounted_reward * gamma

        rl_loss = rl_loss / n_batch
        total_reward = total_reward / n_batch
        rl_loss.backward()
        if grad_clipping is not None:
            torch.nn.utils.clip_grad_norm_(self.generator.parameters(), grad_clipping)
        self.generator.optimizer.step()
        return total_reward, rl_loss.item()


generator = StackAugmentedRNN()
RL = Reinforcement(generator, lambda t: float(t.float().mean()))
RL.policy_gradient([torch.randint(0, 10, (6,)) for _ in range(2)])
