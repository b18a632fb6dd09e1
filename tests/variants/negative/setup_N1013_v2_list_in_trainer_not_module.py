# source: variant of 1013_module_layers_in_python_list.py
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: none — a plain Python list of models on a Trainer (not an nn.Module); each model has its own optimizer over its parameters
# checked: ran, correct (both models updated)
import torch
import torch.nn as nn


class EnsembleTrainer:
    def __init__(self, n=2):
        self.models = [nn.Linear(4, 1) for _ in range(n)]
        self.optimizers = [torch.optim.SGD(m.parameters(), lr=0.1) for m in self.models]

    def train_epoch(self, loader):
        for x, y in loader:
            for m, opt in zip(self.models, self.optimizers):
                opt.zero_grad()
                nn.functional.mse_loss(m(x), y).backward()
                opt.step()


if __name__ == "__main__":
    t = EnsembleTrainer()
    w0 = t.models[1].weight.detach().clone()
    t.train_epoch([(torch.randn(4, 4), torch.randn(4, 1))])
    print("changed:", not torch.equal(w0, t.models[1].weight))
