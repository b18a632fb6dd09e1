# source: variant of 3072_clip_after_step_virtual_batch_trainer.py
# framework: torch
# family: C
# kind: misplaced-grad-clip
# pitfall: none — gradient accumulation with clip between the last backward and step, zero_grad after step
# checked: ran, correct (update norm <= lr * max_grad_norm)
import torch
from torch import nn, optim


class Trainer:
    def __init__(self, model, hparams):
        self.model = model
        self.hparams = hparams
        self.optimizer = optim.SGD(self.model.parameters(), lr=hparams.learning_rate)

    def train_epoch(self, loader):
        self.model.train()
        k = self.hparams.accumulation_steps
        for i, (x, y) in enumerate(loader):
            loss = nn.functional.cross_entropy(self.model(x), y) / k
            loss.backward()
            if (i + 1) % k == 0:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.hparams.max_grad_norm)
                self.optimizer.step()
                self.optimizer.zero_grad()


if __name__ == "__main__":
    import types
    torch.manual_seed(0)
    model = nn.Linear(8, 2)
    before = model.weight.detach().clone()
    t = Trainer(model, types.SimpleNamespace(learning_rate=1.0, accumulation_steps=2, max_grad_norm=1e-4))
    b = (torch.randn(4, 8) * 30, torch.randint(0, 2, (4,)))
    t.train_epoch([b, b])
    print("update norm:", (model.weight - before).norm().item())
