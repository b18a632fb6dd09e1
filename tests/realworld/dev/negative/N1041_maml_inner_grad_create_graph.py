# source: https://github.com/dragen1860/MAML-Pytorch/issues/63
# framework: torch
# family: C
# kind: grad-without-create-graph
# negative: the change proposed in the threads (#26, #32, #63): create_graph=True on both inner-loop autograd.grad calls, so the meta-gradient differentiates through the inner updates
# mimics: positive/1041_maml_inner_grad_without_create_graph.py
# expect: no finding
# checked: ran, no error

import torch
from torch import nn
from torch.nn import functional as F


class Learner(nn.Module):
    def __init__(self, n_in, n_way):
        super(Learner, self).__init__()
        self.vars = nn.ParameterList([nn.Parameter(torch.randn(n_way, n_in) * 0.1), nn.Parameter(torch.zeros(n_way))])

    def forward(self, x, vars=None, bn_training=True):
        if vars is None:
            vars = self.vars
        return F.linear(x, vars[0], vars[1])

    def parameters(self):
        return self.vars


class Meta(nn.Module):
    def __init__(self, update_step=1):
        super(Meta, self).__init__()
        self.update_lr = 0.4
        self.meta_lr = 1e-3
        self.update_step = update_step
        self.net = Learner(16, 5)
        self.meta_optim = torch.optim.Adam(self.net.parameters(), lr=self.meta_lr)

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        task_num = x_spt.size(0)
        losses_q = [0 for _ in range(self.update_step + 1)]

        for i in range(task_num):
            # 1. run the i-th task and compute loss for k=0
            logits = self.net(x_spt[i], vars=None, bn_training=True)
            loss = F.cross_entropy(logits, y_spt[i])
            grad = torch.autograd.grad(loss, self.net.parameters(), create_graph=True)
            fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, self.net.parameters())))

            # this is the loss and accuracy before first update
            with torch.no_grad():
                logits_q = self.net(x_qry[i], self.net.parameters(), bn_training=True)
                loss_q = F.cross_entropy(logits_q, y_qry[i])
                losses_q[0] += loss_q

            # this is the loss and accuracy after the first update
            with torch.no_grad():
                logits_q = self.net(x_qry[i], fast_weights, bn_training=True)
                loss_q = F.cross_entropy(logits_q, y_qry[i])
                losses_q[1] += loss_q

            for k in range(1, self.update_step):
                logits = self.net(x_spt[i], fast_weights, bn_training=True)
                loss = F.cross_entropy(logits, y_spt[i])
                grad = torch.autograd.grad(loss, fast_weights, create_graph=True)
                fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, fast_weights)))
                logits_q = self.net(x_qry[i], fast_weights, bn_training=True)
                loss_q = F.cross_entropy(logits_q, y_qry[i])
                losses_q[k + 1] += loss_q

        loss_q = losses_q[-1] / task_num
        self.meta_optim.zero_grad()
        loss_q.backward()
        self.meta_optim.step()
        return loss_q.item()


maml = Meta(update_step=5)
x_spt, y_spt = torch.randn(2, 5, 16), torch.randint(0, 5, (2, 5))
x_qry, y_qry = torch.randn(2, 15, 16), torch.randint(0, 5, (2, 15))
maml(x_spt, y_spt, x_qry, y_qry)
