# source: https://github.com/nikhilbarhate99/PPO-PyTorch/issues/29
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: the advantage uses state_values.detach() so the actor term does not push the critic, while the same loss trains the critic through 0.5 * MSE(state_values, rewards) on the non-detached values (the maintainer's explanation)
# mimics: detach() of a model output inside the loss
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, state_dim, action_dim):
        super(ActorCritic, self).__init__()
        self.actor = nn.Sequential(nn.Linear(state_dim, 64), nn.Tanh(), nn.Linear(64, action_dim), nn.Softmax(dim=-1))
        self.critic = nn.Sequential(nn.Linear(state_dim, 64), nn.Tanh(), nn.Linear(64, 1))

    def evaluate(self, state, action):
        action_probs = self.actor(state)
        dist = Categorical(action_probs)
        return dist.log_prob(action), self.critic(state), dist.entropy()


class PPO:
    def __init__(self, state_dim, action_dim, lr=0.002, K_epochs=4, eps_clip=0.2):
        self.policy = ActorCritic(state_dim, action_dim)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.K_epochs = K_epochs
        self.eps_clip = eps_clip
        self.MseLoss = nn.MSELoss()

    def update(self, old_states, old_actions, old_logprobs, rewards):
        for _ in range(self.K_epochs):
            logprobs, state_values, dist_entropy = self.policy.evaluate(old_states, old_actions)
            state_values = torch.squeeze(state_values)
            ratios = torch.exp(logprobs - old_logprobs.detach())
            # Finding Surrogate Loss:
            advantages = rewards - state_values.detach()
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.eps_clip, 1 + self.eps_clip) * advantages
            loss = -torch.min(surr1, surr2) + 0.5 * self.MseLoss(state_values, rewards) - 0.01 * dist_entropy
            self.optimizer.zero_grad()
            loss.mean().backward()
            self.optimizer.step()


ppo = PPO(4, 2)
states = torch.randn(16, 4)
actions = torch.randint(0, 2, (16,))
ppo.update(states, actions, torch.log(torch.full((16,), 0.5)), torch.randn(16))
