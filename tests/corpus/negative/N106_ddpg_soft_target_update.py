# source: https://spinningup.openai.com/en/latest/algorithms/ddpg.html
# family: A
# negative: DDPG critic target computed from target networks under no_grad; Polyak update of target parameters through .data/lerp_ under no_grad
# mimics: no_grad / .data on networks that appear in the loss
# expect: no finding

import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

actor = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh())
critic = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 1))
actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
tau, gamma = 0.005, 0.99

s, a, r, s2 = torch.randn(64, 3), torch.rand(64, 1) * 2 - 1, torch.randn(64, 1), torch.randn(64, 3)
with torch.no_grad():
    y = r + gamma * critic_t(torch.cat([s2, actor_t(s2)], dim=1))
critic_loss = F.mse_loss(critic(torch.cat([s, a], dim=1)), y)
critic_opt.zero_grad()
critic_loss.backward()
critic_opt.step()

with torch.no_grad():
    for p, p_t in zip(critic.parameters(), critic_t.parameters()):
        p_t.data.lerp_(p.data, tau)
