# source: variant of 1102_graphstorm_clip_after_step.py
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: backward happens in training_step(), the loop in train_epoch() steps and only then clips (model passed as argument, optimizer from configure_optimizers)
# expect: line 33 — nn.utils.clip_grad_norm_ after self.optimizer.step()
# checked: ran, reproduces (with SGD lr=1 the parameter update is far larger than max_norm: clipping had no effect on the step)
import torch
from torch import nn


class Module:
    def __init__(self, model, lr, max_norm):
        self.model = model
        self.lr = lr
        self.max_norm = max_norm
        self.optimizer = self.configure_optimizers()

    def configure_optimizers(self):
        return torch.optim.SGD(self.model.parameters(), lr=self.lr)

    def training_step(self, batch):
        x, y = batch
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        return loss

    def train_epoch(self, loader):
        for batch in loader:
            self.optimizer.zero_grad()
            self.training_step(batch)
            self.optimizer.step()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)


if __name__ == "__main__":
    model = nn.Linear(16, 4)
    before = model.weight.detach().clone()
    m = Module(model, lr=1.0, max_norm=0.001)
    m.train_epoch([(torch.randn(32, 16) * 50, torch.randn(32, 4))])
    print("update norm:", (model.weight - before).norm().item(), "(<=0.001 if clipped first)")
