# source: variant of 1228_slm_lab_actor_critic_log_probs_torch_tensor.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: a PPO update evaluates the new log-probabilities step by step into a list and packs them with torch.as_tensor(new_log_probs); the copy has no history, so the clipped surrogate never reaches the policy network
# expect: line 24 — torch.as_tensor(list of log-prob tensors) copies the values; use torch.stack(new_log_probs)
# checked: ran, reproduces (loss.backward() raises "element 0 of tensors does not require grad")

import torch
import torch.nn as nn


class PPOAgent:
    def __init__(self, obs_dim=4, n_actions=2, clip=0.2):
        self.policy = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=3e-4)
        self.clip = clip

    def update(self, states, actions, old_log_probs, advantages):
        new_log_probs = []
        for s, a in zip(states, actions):
            dist = torch.distributions.Categorical(logits=self.policy(s))
            new_log_probs.append(dist.log_prob(a))
        new_log_probs = torch.as_tensor(new_log_probs)
        ratio = torch.exp(new_log_probs - old_log_probs)
        surr1 = ratio * advantages
        surr2 = torch.clamp(ratio, 1 - self.clip, 1 + self.clip) * advantages
        loss = -torch.min(surr1, surr2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


agent = PPOAgent()
agent.update(torch.randn(5, 4), torch.randint(0, 2, (5,)), torch.full((5,), -0.69), torch.randn(5))
