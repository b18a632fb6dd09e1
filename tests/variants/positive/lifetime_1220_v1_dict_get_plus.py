# source: variant of 1220_yolo_solver_total_loss_dict_of_tensors.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the epoch loop folds the per-batch loss dict into totals with totals[k] = totals.get(k, 0) + v, where v are the graph-carrying loss terms; every batch's graph is kept until the epoch ends
# expect: line 38 — totals[name] = totals.get(name, 0) + value keeps every batch's graph; use value.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Criterion:
    def __call__(self, pred, target):
        terms = {"box": F.l1_loss(pred[:, :4], target[:, :4]), "cls": F.mse_loss(pred[:, 4:], target[:, 4:])}
        return sum(terms.values()), terms


class Solver:
    def __init__(self, model):
        self.model = model
        self.loss_fn = Criterion()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def train_one_batch(self, x, y):
        self.optimizer.zero_grad()
        loss, terms = self.loss_fn(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return terms

    def train_one_epoch(self, loader):
        totals = {}
        for x, y in loader:
            terms = self.train_one_batch(x, y)
            for name, value in terms.items():
                totals[name] = totals.get(name, 0) + value
        return {k: v / len(loader) for k, v in totals.items()}


if __name__ == "__main__":
    solver = Solver(nn.Linear(8, 6))
    loader = [(torch.randn(4, 8), torch.randn(4, 6)) for _ in range(3)]
    pass
