# source: https://pytorch.org/docs/stable/generated/torch.nn.CrossEntropyLoss.html
# family: E
# negative: reduction="sum" over a small batch of per-example losses (32 values), normalised by the number of examples afterwards
# mimics: reduction="sum" loss constructor
# expect: no finding

import torch
import torch.nn as nn

model = nn.Linear(20, 10)
criterion = nn.CrossEntropyLoss(reduction="sum")
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for step in range(100):
    x, y = torch.randn(32, 20), torch.randint(0, 10, (32,))
    loss = criterion(model(x), y) / x.size(0)
    opt.zero_grad()
    loss.backward()
    opt.step()
