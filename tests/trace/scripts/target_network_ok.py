# Correct: DQN-style target network; the detach is intended (a constant target).
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
q = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
target = copy.deepcopy(q)
opt = torch.optim.Adam(q.parameters(), lr=1e-3)
for step in range(30):
    s, s2 = torch.randn(16, 4), torch.randn(16, 4)
    a = torch.randint(0, 2, (16,))
    r = torch.randn(16)
    y = r + 0.99 * target(s2).detach().max(1).values
    pred = q(s).gather(1, a[:, None]).squeeze(1)
    loss = nn.functional.smooth_l1_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        target.load_state_dict(q.state_dict())
    print(f"step {step} loss {loss.item():.3f}")
