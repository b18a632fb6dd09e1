# source: variant of 1223_tennis_court_trainer_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: none — gradients come from torch.autograd.grad and are assigned (p.grad = g), overwriting the previous ones, so no zero_grad is needed
# checked: ran, correct (the gradient seen by each step equals the batch gradient)
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, optimizer, criterion):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion

    def train_epoch(self, loader):
        params = [p for p in self.model.parameters() if p.requires_grad]
        for x, y in loader:
            loss = self.criterion(self.model(x), y)
            grads = torch.autograd.grad(loss, params)
            for p, g in zip(params, grads):
                p.grad = g
            self.optimizer.step()


if __name__ == "__main__":
    model = nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    seen = []
    opt.register_step_pre_hook(lambda o, a, k: seen.append(model.weight.grad.clone()))
    b = (torch.randn(4, 8), torch.randn(4, 2))
    Trainer(model, opt, nn.MSELoss()).train_epoch([b, b])
    print("equal:", torch.allclose(seen[0], seen[1]))
