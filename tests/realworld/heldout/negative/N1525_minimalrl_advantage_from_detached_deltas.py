# source: https://github.com/seungeunrho/minimalRL/issues/33
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: the GAE advantages are computed from detached TD errors and rebuilt with torch.tensor(advantage_lst) on purpose (they are constants in the PPO objective); the policy is trained through ratio and the value head through the smooth-L1 term
# mimics: torch.tensor(...) of values derived from model outputs inside a training step
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F

learning_rate, gamma, lmbda, eps_clip, K_epoch = 0.0005, 0.98, 0.95, 0.1, 3


class PPO(nn.Module):
    def __init__(self):
        super(PPO, self).__init__()
        self.fc1 = nn.Linear(4, 256)
        self.fc_pi = nn.Linear(256, 2)
        self.fc_v = nn.Linear(256, 1)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=learning_rate)

    def pi(self, x, softmax_dim=0):
        x = F.relu(self.fc1(x))
        return F.softmax(self.fc_pi(x), dim=softmax_dim)

    def v(self, x):
        x = F.relu(self.fc1(x))
        return self.fc_v(x)

    def train_net(self, s, a, r, s_prime, done_mask, prob_a):
        for i in range(K_epoch):
            td_target = r + gamma * self.v(s_prime) * done_mask
            delta = td_target - self.v(s)
            delta = delta.detach().numpy()

            advantage_lst = []
            advantage = 0.0
            for delta_t in delta[::-1]:
                advantage = gamma * lmbda * advantage + delta_t[0]
                advantage_lst.append([advantage])
            advantage_lst.reverse()
            advantage = torch.tensor(advantage_lst, dtype=torch.float)

            pi = self.pi(s, softmax_dim=1)
            pi_a = pi.gather(1, a)
            ratio = torch.exp(torch.log(pi_a) - torch.log(prob_a))  # a/b == exp(log(a)-log(b))

            surr1 = ratio * advantage
            surr2 = torch.clamp(ratio, 1 - eps_clip, 1 + eps_clip) * advantage
            loss = -torch.min(surr1, surr2) + F.smooth_l1_loss(self.v(s), td_target.detach())

            self.optimizer.zero_grad()
            loss.mean().backward()
            self.optimizer.step()


model = PPO()
T = 8
model.train_net(torch.randn(T, 4), torch.randint(0, 2, (T, 1)), torch.randn(T, 1), torch.randn(T, 4), torch.ones(T, 1), torch.full((T, 1), 0.5))
