# source: https://github.com/dragen1860/MAML-Pytorch/issues/63
# framework: torch
# family: B
# kind: grad-without-create-graph
# negative: the change proposed in the threads (#26, #32, #63): create_graph=True on both inner-loop autograd.grad calls, so the meta-gradient differentiates through the inner updates
# mimics: positive/1148_maml_pytorch_inner_grad_first_order.py
# expect: no finding
# checked: ran, no error
import torch
from torch import nn
from torch import optim
from torch.nn import functional as F
from types import SimpleNamespace


class Learner(nn.Module):
    def __init__(self, n_in=8, n_hidden=16, n_way=5):
        super().__init__()
        self.vars = nn.ParameterList([
            nn.Parameter(torch.randn(n_hidden, n_in) * 0.1), nn.Parameter(torch.zeros(n_hidden)),
            nn.Parameter(torch.randn(n_way, n_hidden) * 0.1), nn.Parameter(torch.zeros(n_way)),
        ])

    def forward(self, x, vars=None, bn_training=True):
        if vars is None:
            vars = self.vars
        w1, b1, w2, b2 = vars
        return F.linear(F.relu(F.linear(x, w1, b1)), w2, b2)

    def parameters(self):
        return self.vars


class Meta(nn.Module):
    """
    Meta Learner
    """
    def __init__(self, args):
        super(Meta, self).__init__()

        self.update_lr = args.update_lr
        self.meta_lr = args.meta_lr
        self.task_num = args.task_num
        self.update_step = args.update_step

        self.net = Learner()
        self.meta_optim = optim.Adam(self.net.parameters(), lr=self.meta_lr)

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        task_num = x_spt.size(0)

        losses_q = [0 for _ in range(self.update_step + 1)]  # losses_q[i], i is tasks idx

        for i in range(task_num):

            # 1. run the i-th task and compute loss for k=0
            logits = self.net(x_spt[i], vars=None, bn_training=True)
            loss = F.cross_entropy(logits, y_spt[i])
            grad = torch.autograd.grad(loss, self.net.parameters(), create_graph=True)
            fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, self.net.parameters())))

            for k in range(1, self.update_step):
                # 1. run the i-th task and compute loss for k=1~K-1
                logits = self.net(x_spt[i], fast_weights, bn_training=True)
                loss = F.cross_entropy(logits, y_spt[i])
                # 2. compute grad on theta_pi
                grad = torch.autograd.grad(loss, fast_weights, create_graph=True)
                # 3. theta_pi = theta_pi - train_lr * grad
                fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, fast_weights)))

                logits_q = self.net(x_qry[i], fast_weights, bn_training=True)
                # loss_q will be overwritten and just keep the loss_q on last update step.
                loss_q = F.cross_entropy(logits_q, y_qry[i])
                losses_q[k + 1] += loss_q

        # end of all tasks
        # sum over all losses on query set across all tasks
        loss_q = losses_q[-1] / task_num

        # optimize theta parameters
        self.meta_optim.zero_grad()
        loss_q.backward()
        self.meta_optim.step()
        self.last_inner_grad = grad
        return loss_q.item()


args = SimpleNamespace(update_lr=0.4, meta_lr=1e-3, task_num=2, update_step=3)
maml = Meta(args)
x_spt, y_spt = torch.randn(2, 5, 8), torch.randint(0, 5, (2, 5))
x_qry, y_qry = torch.randn(2, 15, 8), torch.randint(0, 5, (2, 15))
maml(x_spt, y_spt, x_qry, y_qry)
