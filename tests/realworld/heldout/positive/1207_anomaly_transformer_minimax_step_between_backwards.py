# source: https://github.com/thuml/Anomaly-Transformer/issues/8
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the minimax strategy backpropagates loss1 with retain_graph=True, calls self.optimizer.step(), then backpropagates loss2 through the same retained graph, whose saved weights the step has updated in place
# expect: line 118 — the first self.optimizer.step() modifies parameters the retained graph still needs for loss2.backward() ("is at version 2; expected version 1"); the author removed this step (commit 6dee0a1)
# checked: ran, reproduces (RuntimeError: ... modified by an inplace operation ... is at version 2; expected version 1); solver.py at eb7c8a2 reduced (a one-layer stand-in for AnomalyTransformer that returns output, series and prior; random windows instead of the dataset loader; no validation or early stopping)

import time

import numpy as np
import torch
import torch.nn as nn


def my_kl_loss(p, q):
    res = p * (torch.log(p + 0.0001) - torch.log(q + 0.0001))
    return torch.mean(torch.sum(res, dim=-1), dim=1)


class AnomalyTransformer(nn.Module):
    """one anomaly-attention layer: series association from queries/keys, prior association from a learned Gaussian"""

    def __init__(self, win_size, enc_in, c_out, d_model=16, n_heads=2):
        super(AnomalyTransformer, self).__init__()
        self.n_heads = n_heads
        self.embedding = nn.Linear(enc_in, d_model)
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.sigma = nn.Linear(d_model, n_heads)
        self.projection = nn.Linear(d_model, c_out)
        idx = torch.arange(win_size, dtype=torch.float32)
        self.register_buffer('distances', (idx[:, None] - idx[None, :]).abs())

    def forward(self, x):
        B, L, _ = x.shape
        h = self.embedding(x)
        q = self.query(h).view(B, L, self.n_heads, -1).transpose(1, 2)
        k = self.key(h).view(B, L, self.n_heads, -1).transpose(1, 2)
        v = self.value(h).view(B, L, self.n_heads, -1).transpose(1, 2)
        series = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
        sigma = torch.sigmoid(self.sigma(h).transpose(1, 2) * 5) + 1e-5
        sigma = torch.pow(3, sigma) - 1
        sigma = sigma.unsqueeze(-1).repeat(1, 1, 1, L)
        prior = 1.0 / (np.sqrt(2 * np.pi) * sigma) * torch.exp(-self.distances ** 2 / 2 / (sigma ** 2))
        out = (series @ v).transpose(1, 2).reshape(B, L, -1)
        return self.projection(out), [series], [prior], [sigma]


class Solver(object):
    DEFAULTS = {}

    def __init__(self, config):

        self.__dict__.update(Solver.DEFAULTS, **config)

        self.train_loader = [(torch.randn(self.batch_size, self.win_size, self.input_c), torch.zeros(self.batch_size, self.win_size))
                             for _ in range(3)]

        self.build_model()
        self.device = torch.device("cpu")
        self.criterion = nn.MSELoss()

    def build_model(self):
        self.model = AnomalyTransformer(win_size=self.win_size, enc_in=self.input_c, c_out=self.output_c)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=self.lr)

    def train(self):

        print("======================TRAIN MODE======================")

        time_now = time.time()
        train_steps = len(self.train_loader)

        for epoch in range(self.num_epochs):
            iter_count = 0
            loss1_list = []

            epoch_time = time.time()
            self.model.train()
            for i, (input_data, labels) in enumerate(self.train_loader):

                self.optimizer.zero_grad()
                iter_count += 1
                input = input_data.float().to(self.device)

                output, series, prior, _ = self.model(input)

                # calculate Association discrepancy
                series_loss = 0.0
                prior_loss = 0.0
                for u in range(len(prior)):
                    series_loss += (torch.mean(my_kl_loss(series[u], (
                            prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1,
                                                                                                   self.win_size)).detach())) + torch.mean(
                        my_kl_loss((prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1,
                                                                                                           self.win_size)).detach(),
                                   series[u])))
                    prior_loss += (torch.mean(my_kl_loss(
                        (prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1,
                                                                                                self.win_size)),
                        series[u].detach())) + torch.mean(
                        my_kl_loss(series[u].detach(), (
                                prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1,
                                                                                                       self.win_size)))))
                series_loss = series_loss / len(prior)
                prior_loss = prior_loss / len(prior)

                rec_loss = self.criterion(output, input)

                loss1_list.append((rec_loss - self.k * series_loss).item())
                loss1 = rec_loss - self.k * series_loss
                loss2 = rec_loss + self.k * prior_loss

                # Minimax strategy
                loss1.backward(retain_graph=True)
                self.optimizer.step()
                loss2.backward()
                self.optimizer.step()

            print("Epoch: {} cost time: {}".format(epoch + 1, time.time() - epoch_time))
            train_loss = np.average(loss1_list)


solver = Solver(dict(batch_size=4, win_size=10, input_c=3, output_c=3, lr=1e-4, k=3, num_epochs=1))
solver.train()
