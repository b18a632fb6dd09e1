# source: https://arxiv.org/abs/2006.10726
# family: D
# pitfall: test-time adaptation (entropy minimisation, TENT-like) wraps the adaptation step in torch.no_grad() because it runs at test time
# expect: line 24 — the entropy loss is computed under no_grad, so backward() fails; the adaptation step needs grad enabled (e.g. @torch.enable_grad())

import torch
import torch.nn as nn


def softmax_entropy(logits):
    return -(logits.softmax(1) * logits.log_softmax(1)).sum(1)


class TestTimeAdapter:
    def __init__(self, model, lr=1e-3):
        self.model = model
        bn_params = [p for m in model.modules() if isinstance(m, nn.BatchNorm1d) for p in m.parameters()]
        self.opt = torch.optim.SGD(bn_params, lr=lr, momentum=0.9)

    def adapt(self, x):
        with torch.no_grad():
            logits = self.model(x)
            loss = softmax_entropy(logits).mean()
            loss.backward()
            self.opt.step()
            self.opt.zero_grad()
        return logits


adapter = TestTimeAdapter(nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 5)))
preds = adapter.adapt(torch.randn(32, 20)).argmax(1)
