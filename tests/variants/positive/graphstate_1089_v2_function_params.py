# source: variant of 1089_sam_second_pass_reuses_output.py
# framework: torch
# family: C
# kind: backward-twice
# pitfall: SAM step written as a function receiving model/optimizer/criterion; the second loss is computed from the first forward's logits after their graph was freed
# expect: line 52 — second_loss.backward() goes through the graph freed by loss.backward()
# checked: ran, reproduces (RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate value)
import torch
import torch.nn as nn
import torch.nn.functional as F


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


def sam_train_step(model, optimizer, images, target):
    logits = model(images)
    loss = F.cross_entropy(logits, target)
    loss.backward()
    optimizer.first_step(zero_grad=True)

    second_loss = F.cross_entropy(logits, target)
    second_loss.backward()
    optimizer.second_step(zero_grad=True)
    return loss.detach()


def build(num_classes=10):
    net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, num_classes))
    return net, SAM(net.parameters(), torch.optim.SGD, lr=0.1)


model, optimizer = build()
for images, target in [(torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,)))]:
    sam_train_step(model, optimizer, images, target)
