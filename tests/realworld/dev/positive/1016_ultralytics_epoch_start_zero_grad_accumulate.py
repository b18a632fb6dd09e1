# source: https://github.com/ultralytics/ultralytics/pull/11217
# framework: torch
# family: D
# kind: misplaced-zero-grad
# pitfall: with gradient accumulation the trainer also clears gradients at the start of every epoch, discarding the gradients of the last batches of the previous epoch that never reached optimizer_step()
# expect: line 30 — zero_grad() at the start of the epoch throws away accumulated gradients when the batch count is not a multiple of self.accumulate
# checked: ran, reproduces (the last batches' gradients are discarded)

import torch
import torch.nn as nn


class BaseTrainer:
    def __init__(self, model, accumulate=4, epochs=2):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        self.accumulate = accumulate
        self.epochs = epochs

    def optimizer_step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=10.0)
        self.optimizer.step()
        self.optimizer.zero_grad()

    def _do_train(self, train_loader):
        nb = len(train_loader)
        last_opt_step = -1
        for epoch in range(self.epochs):
            self.model.train()
            self.optimizer.zero_grad()
            for i, (x, y) in enumerate(train_loader):
                ni = i + nb * epoch
                self.loss = nn.functional.mse_loss(self.model(x), y)
                self.loss.backward()
                if ni - last_opt_step >= self.accumulate:
                    self.optimizer_step()
                    last_opt_step = ni


trainer = BaseTrainer(nn.Linear(3, 1))
trainer._do_train([(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(6)])
