# source: https://github.com/kengz/SLM-Lab/pull/133
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: the merged fix (#133): the log-probabilities and entropies are combined with torch.stack, which keeps their graph, so the policy loss trains the actor
# mimics: positive/1228_slm_lab_actor_critic_log_probs_torch_tensor.py
# expect: no finding
# checked: ran, no error; the actor's weights change

import torch
import torch.nn as nn


class Body:
    def __init__(self):
        self.log_probs = []
        self.entropies = []


class Net(nn.Module):
    def __init__(self, in_dim=4, out_dim=2):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(in_dim, 16), nn.ReLU(), nn.Linear(16, out_dim))
        self.optim = torch.optim.Adam(self.parameters(), lr=0.01)
        self.gpu = False

    def forward(self, x):
        return self.model(x)

    def training_step(self, loss):
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return loss


class ActorCritic:
    def __init__(self):
        self.body = Body()
        self.net = Net()
        self.add_entropy = True
        self.entropy_coef = 0.01

    def act(self, state):
        pd = torch.distributions.Categorical(logits=self.net(state))
        action = pd.sample()
        self.body.log_probs.append(pd.log_prob(action))
        self.body.entropies.append(pd.entropy())
        return action

    def train_actor(self, advs):
        '''Trains the actor when the actor and critic are separate networks'''
        policy_loss = self.calc_policy_loss(advs)
        self.net.training_step(loss=policy_loss)
        return policy_loss

    def calc_policy_loss(self, advs):
        '''Calculate the actor's policy loss'''
        assert len(self.body.log_probs) == len(advs), f'{len(self.body.log_probs)} vs {len(advs)}'
        log_probs = torch.stack(self.body.log_probs)
        policy_loss = - log_probs * advs
        if self.add_entropy:
            entropies = torch.stack(self.body.entropies)
            policy_loss += (-self.entropy_coef * entropies)
        policy_loss = torch.mean(policy_loss)
        if torch.cuda.is_available() and self.net.gpu:
            policy_loss = policy_loss.cuda()
        return policy_loss


agent = ActorCritic()
for _ in range(5):
    agent.act(torch.randn(4))
advs = torch.randn(5)
before = [p.clone() for p in agent.net.parameters()]
agent.train_actor(advs)
print('actor updated:', any((p != b).any().item() for p, b in zip(agent.net.parameters(), before)))
