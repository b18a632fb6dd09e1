# source: synthetic
# family: A
# pitfall: advantage actor-critic where .detach() (added to silence a double-backward error) is applied to the value estimate inside the critic loss
# expect: line 20 — the critic loss depends on the critic only through values.detach(): the critic gets no gradient and never learns

import torch
import torch.nn as nn
import torch.nn.functional as F

actor = nn.Sequential(nn.Linear(8, 64), nn.Tanh(), nn.Linear(64, 4))
critic = nn.Sequential(nn.Linear(8, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.Adam([*actor.parameters(), *critic.parameters()], lr=7e-4)


def a2c_update(states, actions, returns):
    dist = torch.distributions.Categorical(logits=actor(states))
    values = critic(states).squeeze(-1)
    advantages = returns - values.detach()
    actor_loss = -(dist.log_prob(actions) * advantages).mean()
    critic_loss = F.mse_loss(values.detach(), returns)
    loss = actor_loss + 0.5 * critic_loss - 0.01 * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


for update in range(10):
    a2c_update(torch.randn(128, 8), torch.randint(0, 4, (128,)), torch.randn(128))
print(critic[0].weight.grad)  # None
