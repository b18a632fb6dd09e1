# source: https://github.com/awslabs/graphstorm/pull/1382
# framework: torch
# family: D
# kind: misplaced-grad-clip
# negative: the proposed fix: the clip block moves between loss.backward() and optimizer.step(), so the optimizer applies the clipped gradients
# mimics: positive/1102_graphstorm_clip_after_step.py
# expect: no finding
# checked: ran, no error

import torch as th


class GSgnnNodePredictionTrainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def fit(self, train_loader, max_grad_norm=None, grad_norm_type=2.0):
        model = self.model
        for input_nodes, labels in train_loader:
            logits = model(input_nodes)
            loss = th.nn.functional.cross_entropy(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            if max_grad_norm is not None:
                th.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm, grad_norm_type)
            self.optimizer.step()


model = th.nn.Linear(16, 4)
trainer = GSgnnNodePredictionTrainer(model, th.optim.SGD(model.parameters(), lr=1.0))
before = model.weight.detach().clone()
batch = (th.randn(32, 16) * 50, th.randint(0, 4, (32,)))
trainer.fit([batch], max_grad_norm=0.001)
