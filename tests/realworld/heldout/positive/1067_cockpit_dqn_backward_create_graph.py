# source: https://github.com/f-dangel/cockpit/issues/30
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: a DQN training step calls loss.backward(create_graph=...) every time the Hessian-eigenvalue quantity is scheduled and never resets the parameters' .grad, producing the parameter/gradient reference-cycle warning
# expect: line 39 — backward with create_graph=True stores graph-carrying .grad on the Q-network's parameters (reference cycle) across training steps
# checked: parse only (needs cockpit and backpack)

import torch
import torch.nn as nn
from backpack import extend
from cockpit import Cockpit, quantities
from cockpit.utils import schedules


class DQNAgent:
    def __init__(self, q_net, batch_size=32):
        self.q_net = extend(q_net)
        self.batch_size = batch_size
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=1e-3)
        self.loss_fn = extend(nn.MSELoss(reduction='mean'))
        self.individual_loss_fn = nn.MSELoss(reduction='none')
        self.cockpit = Cockpit(self.q_net.parameters(), quantities=[quantities.HessMaxEV(schedules.linear(interval=3))])

    def train_step(self, states, targets, train_run_grad_steps):
        q_values = self.q_net(states)
        loss = self.loss_fn(q_values, targets)
        losses = self.individual_loss_fn(q_values, targets)
        self.optimizer.zero_grad()
        with self.cockpit(
            train_run_grad_steps,
            info={
                'batch_size': self.batch_size,
                'individual_losses': losses,
                'loss': loss,
                'optimizer': self.optimizer,
            },
        ):
            loss.backward(create_graph=self.cockpit.create_graph(train_run_grad_steps))
        self.optimizer.step()
