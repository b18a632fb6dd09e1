# source: https://github.com/BatsResearch/labelmodels/issues/4
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: _do_estimate_label_model adds each batch's loss tensor into running_loss for logging; the sum holds on to the graph of every batch of the epoch, so on a large enough training set the GPU runs out of memory
# expect: line 64 — running_loss += loss keeps every batch's graph alive; the reporter's fix, merged by the maintainer, is running_loss += loss.item()
# checked: ran, reproduces (running_loss carries a grad_fn across the epoch); labelmodels/label_model.py at 3b5683b: LabelModel._do_estimate_label_model verbatim, with a small class-conditional subclass whose forward returns per-example log-likelihoods

import logging
import numpy as np
import torch
import torch.nn as nn


class LearningConfig(object):
    def __init__(self):
        self.epochs = 2
        self.batch_size = 4
        self.step_size = 0.01
        self.step_schedule = None
        self.step_size_mult = None
        self.momentum = 0.9
        self.random_seed = 0


class LabelModel(nn.Module):
    def _do_estimate_label_model(self, batches, config):
        """Internal method for optimizing model parameters.

        :param batches: sequence of inputs to forward(). The sequence must
                        contain tuples, even if forward() takes one
                        argument (besides self)
        :param config: an instance of LearningConfig
        """

        # Sets up optimization hyperparameters
        optimizer = torch.optim.SGD(
            self.parameters(), lr=config.step_size, momentum=config.momentum,
            weight_decay=0)
        if config.step_schedule is not None and config.step_size_mult is not None:
            scheduler = torch.optim.lr_scheduler.MultiStepLR(
                optimizer, config.step_schedule, gamma=config.step_size_mult)
        else:
            scheduler = None

        # Iterates over epochs
        for epoch in range(config.epochs):
            logging.info('Epoch {}/{}'.format(epoch + 1, config.epochs))
            if scheduler is not None:
                scheduler.step()

            # Sets model to training mode
            self.train()
            running_loss = 0.0

            # Iterates over training data
            for i_batch, inputs in enumerate(batches):
                optimizer.zero_grad()
                log_likelihood = self(*inputs)
                loss = -1 * torch.mean(log_likelihood)
                loss += self._get_regularization_loss()
                loss.backward()
                optimizer.step()
                running_loss += loss
            epoch_loss = running_loss / len(batches)
            logging.info('Train Loss: %.6f', epoch_loss)
        return epoch_loss

    def _get_regularization_loss(self):
        return 0.0


class NaiveBayes(LabelModel):
    def __init__(self, num_classes, num_lfs, init_acc=.9):
        super().__init__()
        init_acc = -1 * np.log(1.0 / init_acc - 1) / 2
        self.accuracy = nn.Parameter(torch.full((num_lfs, num_classes), float(init_acc)))
        self.class_balance = nn.Parameter(torch.zeros([num_classes]))

    def forward(self, votes):
        # votes: (batch, num_lfs) one-hot-free integer votes; log-likelihood per example
        acc = torch.sigmoid(2 * self.accuracy)
        agree = (votes.unsqueeze(-1) == torch.arange(acc.shape[1])).float()
        ll = (agree * torch.log(acc) + (1 - agree) * torch.log(1 - acc)).sum(1)
        return torch.logsumexp(ll + torch.log_softmax(self.class_balance, 0), dim=1)

    def estimate_label_model(self, votes, config=None):
        if config is None:
            config = LearningConfig()
        batches = [(votes[i:i + config.batch_size],) for i in range(0, len(votes), config.batch_size)]
        return self._do_estimate_label_model(batches, config)


model = NaiveBayes(num_classes=2, num_lfs=3)
epoch_loss = model.estimate_label_model(torch.randint(0, 2, (12, 3)))
print('epoch loss keeps a graph:', epoch_loss.grad_fn is not None)
