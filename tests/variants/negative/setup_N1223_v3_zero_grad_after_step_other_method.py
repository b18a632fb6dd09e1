# source: variant of 1223_tennis_court_trainer_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: none — optimizer_step() method steps and then clears; train_epoch calls backward then optimizer_step every k batches (gradient accumulation)
# checked: ran, correct (each window's gradient is fresh)
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, optimizer, criterion, accum_steps=2):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.accum_steps = accum_steps

    def optimizer_step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.optimizer.zero_grad()

    def train_epoch(self, loader):
        self.model.train()
        for i, (x, y) in enumerate(loader):
            loss = self.criterion(self.model(x), y) / self.accum_steps
            loss.backward()
            if (i + 1) % self.accum_steps == 0:
                self.optimizer_step()


if __name__ == "__main__":
    model = nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    seen = []
    model.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(4, 8), torch.randn(4, 2))
    Trainer(model, opt, nn.MSELoss()).train_epoch([b] * 4)
    print("window grads equal:", torch.allclose(seen[3], seen[1]))
