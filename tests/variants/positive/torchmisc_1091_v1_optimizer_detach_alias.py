# source: variant of 1091_diffgrad_previous_grad_alias.py
# framework: torch
# family: D
# kind: grad-kept-without-clone
# pitfall: an Adam-with-friction optimizer keeps state["prev_grad"] = p.grad.detach(); detach() shares the storage of the gradient buffer, so after zero_grad(set_to_none=False) and the next backward (both in place) the "previous" gradient is the current one and the friction term compares the gradient with itself
# expect: line 34 — detach() is still the live .grad buffer: store p.grad.detach().clone()
# checked: ran, reproduces (at the second step state["prev_grad"] equals p.grad exactly: |prev - grad| max is 0.0)

import torch
from torch.optim import Optimizer


class FrictionAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
                    state["prev_grad"] = torch.zeros_like(p)
                state["step"] += 1
                grad = p.grad
                print("max |prev - grad|:", (state["prev_grad"] - grad).abs().max().item())
                friction = torch.sigmoid((state["prev_grad"] - grad).abs())
                state["prev_grad"] = p.grad.detach()
                state["exp_avg"].mul_(beta1).add_(grad, alpha=1 - beta1)
                state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = state["exp_avg_sq"].sqrt().add_(group["eps"])
                p.addcdiv_(state["exp_avg"] * friction, denom, value=-group["lr"])


model = torch.nn.Linear(4, 1)
opt = FrictionAdam(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad(set_to_none=False)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    opt.step()
