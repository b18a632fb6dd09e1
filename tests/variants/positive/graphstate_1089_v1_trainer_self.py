# source: variant of 1089_sam_second_pass_reuses_output.py
# framework: torch
# family: C
# kind: backward-twice
# pitfall: SAM trainer class: the second forward-backward pass in train_step reuses self-held output of the first forward; the graph was freed by the first backward
# expect: line 57 — self.criterion(output, target).backward() reuses the freed graph of the first forward
# checked: ran, reproduces (RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate value)
import torch
import torch.nn as nn


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        super().__init__(params, dict(rho=rho, **kwargs))
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = torch.norm(torch.stack([p.grad.norm(p=2) for g in self.param_groups for p in g["params"] if p.grad is not None]), p=2)
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * scale
                p.add_(e_w)
                self.state[p]["e_w"] = e_w
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.sub_(self.state[p]["e_w"])
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()


class Trainer:
    def __init__(self, model):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = SAM(model.parameters(), torch.optim.SGD, lr=0.1, momentum=0.9)

    def train_step(self, images, target):
        self.model.train()
        output = self.model(images)
        loss = self.criterion(output, target)
        loss.backward()
        self.optimizer.first_step(zero_grad=True)

        self.criterion(output, target).backward()
        self.optimizer.second_step(zero_grad=True)
        return loss.item()

    def fit(self, loader, epochs=1):
        for _ in range(epochs):
            for images, target in loader:
                self.train_step(images, target)


trainer = Trainer(nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 10)))
trainer.fit([(torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,)))])
