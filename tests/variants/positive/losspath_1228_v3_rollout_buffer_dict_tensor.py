# source: variant of 1228_slm_lab_actor_critic_log_probs_torch_tensor.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: the rollout is stored in a dict of lists and converted with {k: torch.tensor(v, dtype=torch.float32) for k, v in buffer.items()}; the log-probabilities and values are copied into tensors without history, so the A2C loss trains neither head
# expect: line 35 — torch.tensor(v) over the buffer's lists of log-prob / value tensors copies them into leaves
# checked: ran, reproduces (loss.backward() raises "element 0 of tensors does not require grad")

import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 32)
        self.pi = nn.Linear(32, 2)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = torch.relu(self.body(s))
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


model = ActorCritic()
optimizer = torch.optim.Adam(model.parameters(), lr=7e-4)
buffer = {"log_probs": [], "values": [], "rewards": []}
for t in range(5):
    dist, value = model(torch.randn(4))
    a = dist.sample()
    buffer["log_probs"].append(dist.log_prob(a))
    buffer["values"].append(value)
    buffer["rewards"].append(1.0)

batch = {k: torch.tensor(v, dtype=torch.float32) for k, v in buffer.items()}
returns = torch.cumsum(batch["rewards"].flip(0), 0).flip(0)
adv = returns - batch["values"]
loss = -(batch["log_probs"] * adv.detach()).mean() + adv.pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
