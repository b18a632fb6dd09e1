# source: https://github.com/Mikoto10032/AutomaticWeightedLoss
# family: A
# pitfall: multi-task uncertainty weighting packs the task losses with torch.tensor(losses) before weighting them by learned log-variances
# expect: line 16 — torch.tensor() copies the values of the task losses: only log_vars are trained, the shared network gets no gradient (silently)

import torch
import torch.nn as nn


class AutomaticWeightedLoss(nn.Module):
    def __init__(self, num=2):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(num))

    def forward(self, *losses):
        L = torch.tensor(losses)
        return (torch.exp(-self.log_vars) * L + self.log_vars).sum()


trunk = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
head_reg, head_cls = nn.Linear(32, 1), nn.Linear(32, 3)
awl = AutomaticWeightedLoss(2)
opt = torch.optim.Adam([*trunk.parameters(), *head_reg.parameters(), *head_cls.parameters(), *awl.parameters()])

x, y_reg, y_cls = torch.randn(64, 10), torch.randn(64, 1), torch.randint(0, 3, (64,))
h = trunk(x)
loss = awl(nn.functional.mse_loss(head_reg(h), y_reg), nn.functional.cross_entropy(head_cls(h), y_cls))
opt.zero_grad()
loss.backward()
opt.step()
print(trunk[0].weight.grad)  # None
