# source: https://github.com/toshikwa/sac-discrete.pytorch/issues/24
# framework: torch
# family: A
# kind: loss-under-no-grad
# negative: the critic's Q values are computed under torch.no_grad() in the policy loss on purpose (the policy gradient does not depend on the critic's parameters); the loss still depends on the policy through action_probs and log_action_probs
# mimics: part of a loss computed under torch.no_grad()
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class CateoricalPolicy(nn.Module):
    def __init__(self, num_states, num_actions):
        super().__init__()
        self.head = nn.Linear(num_states, num_actions)

    def sample(self, states):
        action_probs = torch.softmax(self.head(states), dim=1)
        actions = torch.multinomial(action_probs, 1)
        log_action_probs = torch.log(action_probs + (action_probs == 0.0).float() * 1e-8)
        return actions, action_probs, log_action_probs


class TwinnedQNetwork(nn.Module):
    def __init__(self, num_states, num_actions):
        super().__init__()
        self.Q1 = nn.Linear(num_states, num_actions)
        self.Q2 = nn.Linear(num_states, num_actions)

    def forward(self, states):
        return self.Q1(states), self.Q2(states)


class SacdAgent:
    def __init__(self, num_states=6, num_actions=3, alpha=0.2):
        self.policy = CateoricalPolicy(num_states, num_actions)
        self.online_critic = TwinnedQNetwork(num_states, num_actions)
        self.policy_optim = torch.optim.Adam(self.policy.parameters(), lr=3e-4)
        self.alpha = alpha

    def calc_policy_loss(self, batch, weights):
        states, actions, rewards, next_states, dones = batch

        # (Log of) probabilities to calculate expectations of Q and entropies.
        _, action_probs, log_action_probs = self.policy.sample(states)

        with torch.no_grad():
            # Q for every actions to calculate expectations of Q.
            q1, q2 = self.online_critic(states)
            q = torch.min(q1, q2)

        # Expectations of entropies.
        entropies = -torch.sum(action_probs * log_action_probs, dim=1, keepdim=True)

        # Expectations of Q.
        q = torch.sum(torch.min(q1, q2) * action_probs, dim=1, keepdim=True)

        # Policy objective is maximization of (Q + alpha * entropy) with
        # priority weights.
        policy_loss = (weights * (- q - self.alpha * entropies)).mean()

        return policy_loss, entropies.detach()


agent = SacdAgent()
batch = (torch.randn(8, 6), None, None, None, None)
policy_loss, entropies = agent.calc_policy_loss(batch, torch.ones(8, 1))
agent.policy_optim.zero_grad()
policy_loss.backward()
agent.policy_optim.step()
