# source: https://github.com/davda54/sam/issues/45
# framework: torch
# family: C
# kind: backward-twice
# negative: the fix from the README the thread points to: the second pass runs the model again, criterion(model(images), target).backward()
# mimics: positive/1089_sam_second_pass_reuses_output.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super(SAM, self).__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = torch.norm(torch.stack([p.grad.norm(p=2) for group in self.param_groups for p in group["params"] if p.grad is not None]), p=2)
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * scale.to(p)
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


model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 10))
criterion = nn.CrossEntropyLoss()
optimizer = SAM(model.parameters(), torch.optim.SGD, lr=0.1, momentum=0.9)
train_loader = [(torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,)))]

for i, (images, target) in enumerate(train_loader):
    # compute output
    output = model(images)
    # SAM
    # first forward-backward pass
    loss = criterion(output, target)  # use this loss for any training statistics
    loss.backward()
    optimizer.first_step(zero_grad=True)

    # second forward-backward pass
    criterion(model(images), target).backward()  # make sure to do a full forward pass
    optimizer.second_step(zero_grad=True)
