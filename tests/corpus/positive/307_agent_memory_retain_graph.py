# source: synthetic
# family: C
# pitfall: a recurrent "memory" vector of an agent (hand-written recurrence, not nn.RNN) is carried across updates and backward uses retain_graph=True
# expect: line 22 — retain_graph=True with a memory that is never detached: each update backpropagates through the whole history (growing cost) and fails after the first optimizer step

import torch
import torch.nn as nn

W_in, W_mem = nn.Linear(10, 32), nn.Linear(32, 32)
policy = nn.Linear(32, 4)
opt = torch.optim.SGD([*W_in.parameters(), *W_mem.parameters(), *policy.parameters()], lr=1e-2)

memory = torch.zeros(1, 32)
for t in range(1000):
    obs = torch.randn(1, 10)
    memory = torch.tanh(W_in(obs) + W_mem(memory))
    logp = torch.log_softmax(policy(memory), dim=-1)
    action = torch.randint(0, 4, (1,))
    reward = torch.randn(())
    loss = -(reward * logp[0, action]).sum()
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
