# source: negative twin of a variant of 1091_diffgrad_previous_grad_alias.py
# framework: torch
# family: D
# kind: grad-kept-without-clone
# negative: state["prev_grad"] = p.grad.detach().clone(): a copy
# mimics: positive/1091_v1_optimizer_detach_alias.py
# expect: no finding
# checked: ran; |prev - grad| is nonzero at every step

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
                state["prev_grad"] = p.grad.detach().clone()
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
