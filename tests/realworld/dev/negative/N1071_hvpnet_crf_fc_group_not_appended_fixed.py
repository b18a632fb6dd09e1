# source: https://github.com/zjunlp/HVPNeT/issues/5
# framework: torch
# family: D
# kind: params-not-in-optimizer
# negative: the maintainers' fix: parameters.append(params) after the crf/fc block, so the head is optimised
# mimics: positive/1071_hvpnet_crf_fc_group_not_appended.py
# expect: no finding
# checked: ran, no error

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
        parameters.append(params)

        self.optimizer = optim.AdamW(parameters)


class Args:
    lr = 1e-3


trainer = NERTrainer(HMNeTNERModel(), Args())
trainer.multiModal_before_train()
before = trainer.model.fc.weight.clone()
loss = trainer.model(torch.randn(4, 16)).pow(2).mean()
loss.backward()
trainer.optimizer.step()
