# source: https://github.com/zjunlp/HVPNeT/issues/5
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: the optimizer's parameter groups are built in three blocks, but the last block (crf and fc, with its own learning rate) is never appended to the parameters list, so the classifier head is not trained
# expect: line 53 — the crf/fc parameter group is built but not appended; AdamW(parameters) never sees those parameters
# checked: ran, reproduces (crf and fc weights do not change after a step)

import torch
import torch.nn as nn
import torch.optim as optim


class HMNeTNERModel(nn.Module):
    def __init__(self, num_labels=5):
        super().__init__()
        self.bert = nn.Linear(16, 16)
        self.encoder_conv = nn.Linear(16, 16)
        self.gates = nn.Linear(16, 16)
        self.fc = nn.Linear(16, num_labels)
        self.crf = nn.Linear(num_labels, num_labels)

    def forward(self, x):
        h = self.bert(x) + self.gates(torch.relu(self.encoder_conv(x)))
        return self.crf(self.fc(h))


class NERTrainer(object):
    def __init__(self, model, args):
        self.model = model
        self.args = args

    def multiModal_before_train(self):
        parameters = []
        params = {'lr': self.args.lr, 'weight_decay': 1e-2}
        params['params'] = []
        for name, param in self.model.named_parameters():
            if 'bert' in name:
                params['params'].append(param)
        parameters.append(params)

        params = {'lr': self.args.lr, 'weight_decay': 1e-2}
        params['params'] = []
        for name, param in self.model.named_parameters():
            if 'encoder_conv' in name or 'gates' in name:
                params['params'].append(param)
        parameters.append(params)

        params = {'lr': 5e-2, 'weight_decay': 1e-2}
        params['params'] = []
        for name, param in self.model.named_parameters():
            if 'crf' in name or name.startswith('fc'):
                params['params'].append(param)

        self.optimizer = optim.AdamW(parameters)


class Args:
    lr = 1e-3


trainer = NERTrainer(HMNeTNERModel(), Args())
trainer.multiModal_before_train()
before = trainer.model.fc.weight.clone()
loss = trainer.model(torch.randn(4, 16)).pow(2).mean()
loss.backward()
trainer.optimizer.step()
