# source: variant of 1017_wekws_executor_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: two optimizers (backbone / head, different lrs) kept in a list and stepped in a loop; nothing ever clears the gradients
# expect: line 24 — loss.backward() accumulates into previous batches' gradients (no zero_grad for either optimizer)
# checked: ran, reproduces (post-accumulate hook: gradient seen by the 2nd step == 2x the single-batch gradient)
import torch
import torch.nn as nn


class Executor:
    def __init__(self, model):
        self.model = model
        self.optimizers = [
            torch.optim.SGD(model[0].parameters(), lr=0.0),
            torch.optim.Adam(model[2].parameters(), lr=0.0),
        ]

    def train_epoch(self, loader):
        self.model.train()
        for feats, target in loader:
            loss = nn.functional.cross_entropy(self.model(feats), target)
            loss.backward()
            for opt in self.optimizers:
                opt.step()


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
    ex = Executor(model)
    seen = []
    model[2].weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(4, 8), torch.tensor([0, 1, 0, 1]))
    ex.train_epoch([b, b])
    print("accumulated:", torch.allclose(seen[1], 2 * seen[0]))
