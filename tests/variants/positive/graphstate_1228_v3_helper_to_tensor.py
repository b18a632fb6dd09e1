# source: variant of 1228_slm_lab_actor_critic_log_probs_torch_tensor.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: a generic to_tensor helper (torch.tensor(xs, dtype=torch.float32, requires_grad=True)) is applied to the buffer of log-probs, cutting them off from the policy
# expect: line 13 — torch.tensor(xs, ..., requires_grad=True) inside to_tensor rewraps the log-probs
# checked: ran, reproduces (policy grad: None)
import torch
import torch.nn as nn


def to_tensor(xs):
    return torch.tensor(xs, dtype=torch.float32, requires_grad=True)


policy = nn.Sequential(nn.Linear(4, 2))
optimizer = torch.optim.SGD(policy.parameters(), lr=0.1)
log_probs, advantages = [], []
for t in range(4):
    dist = torch.distributions.Categorical(logits=policy(torch.randn(4)))
    a = dist.sample()
    log_probs.append(dist.log_prob(a))
    advantages.append(float(t))

loss = -(to_tensor(log_probs) * torch.tensor(advantages)).mean()
optimizer.zero_grad()
loss.backward()
print("policy grad:", policy[0].weight.grad)
optimizer.step()
