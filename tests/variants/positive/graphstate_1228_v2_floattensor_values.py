# source: variant of 1228_slm_lab_actor_critic_log_probs_torch_tensor.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: A2C update collects critic values in a list and rewraps them with torch.FloatTensor(values); the critic loss has no path to the critic
# expect: line 22 — torch.FloatTensor(values) copies the critic outputs into a new tensor
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
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
        values = torch.FloatTensor(self.values)
        critic_loss = (returns - values).pow(2).mean()
        self.optimizer.zero_grad()
        critic_loss.backward()
        self.optimizer.step()
        self.values = []


agent = A2C()
for _ in range(4):
    agent.observe(torch.randn(4))
agent.update(torch.randn(4))
