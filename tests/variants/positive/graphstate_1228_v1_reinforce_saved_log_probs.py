# source: variant of 1228_slm_lab_actor_critic_log_probs_torch_tensor.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: REINFORCE policy keeps self.saved_log_probs; finish_episode builds torch.tensor(self.saved_log_probs, requires_grad=True), a new leaf, so the policy network gets no gradient
# expect: line 40 — torch.tensor(self.policy.saved_log_probs, requires_grad=True) detaches the log-probs
# checked: ran, reproduces (policy updated: False)
import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        return torch.softmax(self.affine(x), dim=-1)


class Agent:
    def __init__(self):
        self.policy = Policy()
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=1e-2)

    def select_action(self, state):
        m = torch.distributions.Categorical(self.policy(state))
        action = m.sample()
        self.policy.saved_log_probs.append(m.log_prob(action))
        return action.item()

    def finish_episode(self, gamma=0.99):
        R, returns = 0.0, []
        for r in reversed(self.policy.rewards):
            R = r + gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        log_probs = torch.tensor(self.policy.saved_log_probs, requires_grad=True)
        loss = (-log_probs * returns).sum()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


agent = Agent()
for _ in range(5):
    agent.select_action(torch.randn(4))
    agent.policy.rewards.append(1.0)
before = [p.clone() for p in agent.policy.parameters()]
agent.finish_episode()
print("policy updated:", any((p != b).any().item() for p, b in zip(agent.policy.parameters(), before)))
