# source: variant of 1080_dqn_cost_his_append_loss.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the agent's learn() appends its loss tensor (criterion built by a make_criterion helper) to self.loss_history after every update, keeping every update's graph alive
# expect: line 44 — self.loss_history.append(loss) keeps the graph-carrying loss of every update; append loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn


def make_criterion(kind):
    return nn.SmoothL1Loss() if kind == "huber" else nn.MSELoss()


class QNet(nn.Module):
    def __init__(self, n_states, n_actions):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(n_states, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, s):
        return self.fc(s)


class Agent:
    def __init__(self, n_states=4, n_actions=2, gamma=0.99):
        self.q = QNet(n_states, n_actions)
        self.q_target = QNet(n_states, n_actions)
        self.q_target.load_state_dict(self.q.state_dict())
        self.optim = torch.optim.Adam(self.q.parameters(), lr=1e-3)
        self.criterion = make_criterion("huber")
        self.gamma = gamma
        self.loss_history = []

    def learn(self, s, a, r, s2, done):
        q = self.q(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = r + self.gamma * (1 - done) * self.q_target(s2).max(1)[0]
        loss = self.criterion(q, target)
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        self.loss_history.append(loss)


if __name__ == "__main__":
    agent = Agent()
    for _ in range(3):
        agent.learn(torch.randn(8, 4), torch.randint(0, 2, (8,)), torch.randn(8), torch.randn(8, 4), torch.zeros(8))
    pass
