# source: https://github.com/shariqiqbal2810/maddpg-pytorch/issues/34
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# negative: the policy's action is a hard one-hot from gumbel_softmax(hard=True); the forward value is one-hot but the backward pass uses the soft Gumbel-softmax sample (straight-through), so the policy loss still trains the policy
# mimics: a one-hot (argmax-like) action on the loss path
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F


def gumbel_softmax(logits, temperature=1.0, hard=False):
    return F.gumbel_softmax(logits, tau=temperature, hard=hard)


policy = nn.Linear(8, 5)
critic = nn.Linear(8 + 5, 1)
policy_optimizer = torch.optim.Adam(policy.parameters(), lr=0.01)

obs = torch.randn(16, 8)
curr_pol_out = policy(obs)
curr_pol_vf_in = gumbel_softmax(curr_pol_out, hard=True)
vf_in = torch.cat((obs, curr_pol_vf_in), dim=1)
pol_loss = -critic(vf_in).mean()
pol_loss += (curr_pol_out ** 2).mean() * 1e-3
policy_optimizer.zero_grad()
pol_loss.backward()
policy_optimizer.step()
