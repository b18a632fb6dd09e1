# source: variant of 1228_slm_lab_actor_critic_log_probs_torch_tensor.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: an A2C update builds the per-step log-probs and values collected during the rollout with torch.FloatTensor(...); the legacy constructor copies the values, so neither the actor nor the critic gets a gradient
# expect: line 27 — torch.FloatTensor(log_probs) drops the history of the collected log-probabilities; use torch.stack
# checked: ran, reproduces (the actor head model.pi gets .grad None; only the critic path trains)

import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 32)
        self.pi = nn.Linear(32, 2)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = torch.tanh(self.body(s))
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def update(model, optimizer, log_probs, values, returns):
    log_probs = torch.FloatTensor(log_probs)
    values = torch.stack(values)
    adv = returns - values.detach()
    loss = -(log_probs * adv).mean() + (returns - values).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


model = ActorCritic()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
log_probs, values = [], []
for t in range(6):
    dist, value = model(torch.randn(4))
    a = dist.sample()
    log_probs.append(dist.log_prob(a))
    values.append(value)
update(model, optimizer, log_probs, values, torch.randn(6))
