# source: variant of 1223_tennis_court_trainer_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: none — gradients are cleared in a helper method (_reset_grads) called inside the batch loop
# checked: ran, correct (grads not accumulated)
import torch
import torch.nn as nn


def build_optimizer(model, lr=1e-3):
    return torch.optim.Adam(model.parameters(), lr=lr)


class Trainer:
    def __init__(self, model, criterion):
        self.model = model
        self.criterion = criterion
        self.optimizer = build_optimizer(self.model)

    def _reset_grads(self):
        self.optimizer.zero_grad(set_to_none=True)

    def train_epoch(self, loader):
        self.model.train()
        for x, y in loader:
            self._reset_grads()
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()


if __name__ == "__main__":
    model = nn.Linear(8, 2)
    t = Trainer(model, nn.MSELoss())
    t.optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    seen = []
    model.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(4, 8), torch.randn(4, 2))
    t.train_epoch([b, b])
    print("equal (not accumulated):", torch.allclose(seen[1], seen[0]))
