# source: https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html
# family: F
# negative: backward() on a vector output with an explicit gradient argument (vector-Jacobian product), as the docs describe
# mimics: .backward() on a non-scalar tensor
# expect: no finding

import torch
import torch.nn as nn

policy = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2))
states = torch.randn(20, 4)
actions = torch.randint(0, 2, (20,))
returns = torch.randn(20)

log_probs = torch.distributions.Categorical(logits=policy(states)).log_prob(actions)
log_probs.backward(gradient=-returns / len(returns))

x = torch.randn(3, requires_grad=True)
y = x * 2
y.backward(torch.tensor([0.1, 1.0, 0.0001]))
print(x.grad, policy[0].weight.grad.norm())
