# source: variant of 1228_slm_lab_actor_critic_log_probs_torch_tensor.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: an actor-critic agent builds the actor loss from torch.Tensor(self.log_probs).requires_grad_(); the legacy constructor copies the collected log-probabilities into a new leaf, so the actor is never updated
# expect: line 32 — torch.Tensor(self.log_probs) drops the history of the log-probabilities; use torch.stack(self.log_probs)
# checked: ran, reproduces (the actor's weights are unchanged after the step)

import torch
import torch.nn as nn


class Agent:
    def __init__(self):
        self.actor = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
        self.optimizer = torch.optim.Adam(self.actor.parameters(), lr=1e-2)
        self.log_probs = []
        self.rewards = []

    def act(self, state):
        dist = torch.distributions.Categorical(logits=self.actor(state))
        action = dist.sample()
        self.log_probs.append(dist.log_prob(action))
        return action.item()

    def learn(self, gamma=0.99):
        returns, R = [], 0.0
        for r in reversed(self.rewards):
            R = r + gamma * R
            returns.insert(0, R)
        returns = torch.Tensor(returns)
        log_probs = torch.Tensor(self.log_probs).requires_grad_()
        actor_loss = -(log_probs * returns).sum()
        self.optimizer.zero_grad()
        actor_loss.backward()
        self.optimizer.step()
        self.log_probs, self.rewards = [], []


agent = Agent()
for _ in range(5):
    agent.act(torch.randn(4))
    agent.rewards.append(1.0)
before = [p.clone() for p in agent.actor.parameters()]
agent.learn()
print("actor updated:", any((p != b).any().item() for p, b in zip(agent.actor.parameters(), before)))
