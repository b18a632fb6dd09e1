# source: variant of 1223_tennis_court_trainer_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: Trainer keeps model/optimizer on self (optimizer made by a build_optimizer(model) factory); train_epoch calls backward and step per batch but never clears gradients
# expect: line 30 — self.optimizer.zero_grad() is never called: backward accumulates into previous batches' gradients
# checked: ran, reproduces (post-accumulate hook: gradient seen by the 2nd step == 2x the single-batch gradient)
import torch
import torch.nn as nn


def build_optimizer(model, lr=1e-3):
    return torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.999))


class Trainer:
    def __init__(self, model, criterion, device="cpu"):
        self.model = model.to(device)
        self.criterion = criterion
        self.device = device
        self.optimizer = build_optimizer(self.model)

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            out = self.model(x)
            loss = self.criterion(out, y)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(loader)


if __name__ == "__main__":
    model = nn.Linear(8, 2)
    trainer = Trainer(model, nn.MSELoss())
    trainer.optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    b = (torch.randn(4, 8), torch.randn(4, 2))
    seen = []
    model.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    trainer.train_epoch([b, b])
    print("accumulated:", torch.allclose(seen[1], 2 * seen[0]))
