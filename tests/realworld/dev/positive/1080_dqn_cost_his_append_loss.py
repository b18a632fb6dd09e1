# source: https://github.com/ClownW/Reinforcement-learning-with-PyTorch/issues/3
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the DQN appends its loss tensor (self.loss, with its graph) to self.cost_his after every learning step for later plotting; the list keeps every step's graph alive and plot_cost() fails on tensors that require grad
# expect: line 48 — appending the graph-carrying loss to a history list keeps all learning steps' graphs; append self.loss.item() instead
# checked: ran, reproduces (cost_his holds tensors with grad_fn)

import numpy as np
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, n_feature, n_hidden, n_output):
        super(Net, self).__init__()
        self.el = nn.Linear(n_feature, n_hidden)
        self.q = nn.Linear(n_hidden, n_output)

    def forward(self, x):
        return self.q(torch.relu(self.el(x)))


class DeepQNetwork():
    def __init__(self, n_actions, n_features, learning_rate=0.01, reward_decay=0.9):
        self.n_actions = n_actions
        self.n_features = n_features
        self.gamma = reward_decay
        self.q_eval = Net(n_features, 10, n_actions)
        self.q_target = Net(n_features, 10, n_actions)
        self.optimizer = torch.optim.RMSprop(self.q_eval.parameters(), lr=learning_rate)
        self.loss_func = nn.MSELoss()
        self.cost_his = []

    def learn(self, batch_memory):
        q_next = self.q_target(torch.Tensor(batch_memory[:, -self.n_features:]))
        q_eval = self.q_eval(torch.Tensor(batch_memory[:, :self.n_features]))
        q_target = torch.Tensor(q_eval.data.numpy().copy())
        batch_index = np.arange(batch_memory.shape[0], dtype=np.int32)
        eval_act_index = batch_memory[:, self.n_features].astype(int)
        reward = torch.Tensor(batch_memory[:, self.n_features + 1])
        q_target[batch_index, eval_act_index] = reward + self.gamma * torch.max(q_next, 1)[0].detach()

        self.loss = self.loss_func(q_eval, q_target)
        self.optimizer.zero_grad()
        self.loss.backward()
        self.optimizer.step()
        self.cost_his.append(self.loss)


RL = DeepQNetwork(n_actions=4, n_features=2)
for step in range(3):
    memory = np.hstack([np.random.rand(8, 2), np.random.randint(0, 4, (8, 1)), np.random.rand(8, 1), np.random.rand(8, 2)])
    RL.learn(memory)
