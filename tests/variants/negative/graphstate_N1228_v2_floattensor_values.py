# source: variant of 1228_slm_lab_actor_critic_log_probs_torch_tensor.py
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: fixed twin: torch.stack keeps the graph
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class A2C:
    def __init__(self):
        self.critic = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.optimizer = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.values = []

    def observe(self, state):
        self.values.append(self.critic(state).squeeze())

    def update(self, returns):
        values = torch.stack(self.values)
        critic_loss = (returns - values).pow(2).mean()
        self.optimizer.zero_grad()
        critic_loss.backward()
        self.optimizer.step()
        self.values = []


agent = A2C()
for _ in range(4):
    agent.observe(torch.randn(4))
agent.update(torch.randn(4))
