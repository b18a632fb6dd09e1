# source: https://github.com/awslabs/graphstorm/pull/1382
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: every trainer calls clip_grad_norm_ after optimizer.step(), so --max-grad-norm silently does nothing: the optimizer already consumed the unclipped gradients and they are zeroed before the next use
# expect: line 27 — clipping after the step; the contract is backward -> clip -> step
# checked: ran, reproduces (the parameter update is the unclipped one)

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
            self.optimizer.step()

            if max_grad_norm is not None:
                th.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm, grad_norm_type)


model = th.nn.Linear(16, 4)
trainer = GSgnnNodePredictionTrainer(model, th.optim.SGD(model.parameters(), lr=1.0))
before = model.weight.detach().clone()
batch = (th.randn(32, 16) * 50, th.randint(0, 4, (32,)))
trainer.fit([batch], max_grad_norm=0.001)
