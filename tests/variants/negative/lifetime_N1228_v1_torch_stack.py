# source: negative twin of 1228_v1_reinforce_saved_log_probs.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: none: the log-probs are stacked
# checked: ran (no error; gradients reach the model)

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 64)
        self.affine2 = nn.Linear(64, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        return F.softmax(self.affine2(F.relu(self.affine1(x))), dim=-1)


class Agent:
    def __init__(self, gamma=0.99):
        self.policy = Policy()
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=1e-2)
        self.gamma = gamma

    def select_action(self, state):
        probs = self.policy(state)
        m = Categorical(probs)
        action = m.sample()
        self.policy.saved_log_probs.append(m.log_prob(action))
        return action.item()

    def finish_episode(self):
        R, returns = 0, []
        for r in self.policy.rewards[::-1]:
            R = r + self.gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        log_probs = torch.stack(self.policy.saved_log_probs)
        policy_loss = (-log_probs * returns).sum()
        self.optimizer.zero_grad()
        policy_loss.backward()
        self.optimizer.step()
        del self.policy.rewards[:]
        del self.policy.saved_log_probs[:]


if __name__ == "__main__":
    agent = Agent()
    for t in range(5):
        agent.select_action(torch.randn(4))
        agent.policy.rewards.append(1.0)
    agent.finish_episode()
