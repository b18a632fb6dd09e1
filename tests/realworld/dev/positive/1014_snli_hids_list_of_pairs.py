# source: https://github.com/pytorch/pytorch/issues/715
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: hidden layers (each a [Linear, activation] pair) are appended to a plain list self.hids, so only the classifier's parameters reach the optimizer
# expect: line 17 — self.hids is a plain list; the Linear layers appended to it are not registered and never trained
# checked: ran, reproduces (parameters() has only the classifier)

import torch
import torch.nn as nn


class SNLINet(nn.Module):
    def __init__(self, options):
        super(SNLINet, self).__init__()
        self.emb = None
        self.hids = []
        for li in range(options['n_layers']):
            self.hids.append([
                nn.Linear(options['n_hid'], options['n_hid']),
                eval('nn.{}'.format(options['act']))()
                ])
            indim = options['n_hid']

        self.classifier = nn.Linear(options['n_hid'], 3)

    def forward(self, x):
        for lin, act in self.hids:
            x = act(lin(x))
        return self.classifier(x)


options = {'n_layers': 2, 'n_hid': 8, 'act': 'ReLU'}
model = SNLINet(options)
print(model.parameters)
optimizer = torch.optim.Adam(model.parameters())
