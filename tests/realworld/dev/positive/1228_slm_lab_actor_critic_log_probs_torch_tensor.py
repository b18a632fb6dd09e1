# source: https://github.com/kengz/SLM-Lab/pull/133
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: ActorCritic.calc_policy_loss packs the per-step log-probabilities (and entropies) collected by the body into torch.tensor(..., requires_grad=True); that builds a new leaf from their values, so the policy loss has a gradient only with respect to this copy and the actor network is never updated ("REINFORCE and its descendants are broken ... no gradient update was done")
# expect: line 59 — torch.tensor(self.body.log_probs, requires_grad=True) detaches the log-probabilities from the policy network; the PR replaces it by torch.stack(self.body.log_probs)
# checked: ran, reproduces (the policy net's weights get no gradient); slm_lab/agent/algorithm/actor_critic.py calc_policy_loss at fbf482e^ verbatim; body, net and training_step reduced to a small policy network and an Adam step

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
        log_probs = torch.tensor(self.body.log_probs, requires_grad=True)
        entropies = torch.tensor(self.body.entropies, requires_grad=True)
        if self.add_entropy:
            policy_loss = (- log_probs * advs) - self.entropy_coef * entropies
        else:
            policy_loss = - log_probs * advs
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
