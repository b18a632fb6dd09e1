# source: variant of 1042_racnn_rank_loss_vector_backward.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: multi-head loop: BCEWithLogitsLoss(reduction="none") per head, backward with retain_graph on each head's vector loss
# expect: line 19 — head_loss.backward(...) on a per-sample vector
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)
import torch
import torch.nn as nn

heads = nn.ModuleList([nn.Linear(8, 1) for _ in range(3)])
bce = nn.BCEWithLogitsLoss(reduction="none")
optimizer = torch.optim.SGD(heads.parameters(), lr=0.1)
x = torch.randn(32, 8)
y = torch.randint(0, 2, (32, 1)).float()
optimizer.zero_grad()
for i, head in enumerate(heads):
    head_loss = bce(head(x), y).squeeze(1)
    head_loss.backward(retain_graph=i < len(heads) - 1)
optimizer.step()
