# source: https://github.com/hijkzzz/pymarl2/issues/46
# framework: torch
# family: C
# kind: backward-twice
# pitfall: the PPO/MAPPO learner computes the advantages from the critic once, outside the mini-epoch loop, and uses them (with their graph) in every mini-epoch's actor loss; the second pg_loss.backward() goes through the freed critic graph
# expect: line 38 — advantages carry the critic's graph into every mini-epoch; after the first backward it is freed (detach them: they are only a weight for the actor loss)
# checked: ran, reproduces ("Trying to backward through the graph a second time" when mini_epochs > 1)

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
        advantages = self.train_critic(obs, rewards)
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
