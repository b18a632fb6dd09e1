# source: https://github.com/hijkzzz/pymarl2/issues/46
# framework: torch
# family: C
# kind: backward-twice
# negative: the fix proposed in the issue: the advantages are detached before the mini-epoch loop, so each actor backward only walks its own graph
# mimics: positive/1109_mappo_advantages_reused_across_epochs.py
# expect: no finding
# checked: ran, no error

import torch as th
import torch.nn as nn


class Args:
    mini_epochs = 4
    eps_clip = 0.2
    gamma = 0.99


class PPOLearner:
    def __init__(self, args):
        self.args = args
        self.mac = nn.Linear(6, 3)
        self.critic = nn.Linear(6, 1)
        self.agent_optimiser = th.optim.Adam(self.mac.parameters(), lr=5e-4)
        self.critic_optimiser = th.optim.Adam(self.critic.parameters(), lr=5e-4)

    def train_critic(self, obs, rewards):
        values = self.critic(obs).squeeze(-1)
        target_returns = rewards + self.args.gamma * values.detach().roll(-1)
        critic_loss = ((target_returns - values) ** 2).mean()
        self.critic_optimiser.zero_grad()
        critic_loss.backward(retain_graph=True)
        self.critic_optimiser.step()
        advantages = target_returns - values
        return advantages

    def train(self, obs, actions, rewards, old_log_pi_taken):
        advantages = self.train_critic(obs, rewards).detach()
        for k in range(self.args.mini_epochs):
            pi = th.log_softmax(self.mac(obs), dim=-1)
            log_pi_taken = pi.gather(1, actions[:, None]).squeeze(1)
            ratios = th.exp(log_pi_taken - old_log_pi_taken.detach())
            surr1 = ratios * advantages
            surr2 = th.clamp(ratios, 1 - self.args.eps_clip, 1 + self.args.eps_clip) * advantages
            pg_loss = -th.min(surr1, surr2).mean()
            self.agent_optimiser.zero_grad()
            pg_loss.backward()
            self.agent_optimiser.step()


learner = PPOLearner(Args())
obs = th.randn(16, 6)
actions = th.randint(0, 3, (16,))
learner.train(obs, actions, th.randn(16), th.log_softmax(th.randn(16, 3), -1).gather(1, actions[:, None]).squeeze(1))
