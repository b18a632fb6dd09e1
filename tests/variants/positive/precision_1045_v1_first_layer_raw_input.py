# source: variant of 1045_checkpoint_lambda_input_no_grad.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: to save memory the model checkpoints its first stage on the raw input batch (which does not require grad), with use_reentrant=True; the stage's parameters never get a gradient
# expect: line 21 — reentrant checkpoint on the input batch, which does not require grad
# checked: ran, reproduces (warning "None of the inputs have requires_grad=True"; stem.weight.grad is None after backward)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(4, 32), nn.ReLU())
        self.head = nn.Linear(32, 3)

    def forward(self, x):
        h = checkpoint(self.stem, x, use_reentrant=True)
        return self.head(h)


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(10, 4), torch.randint(0, 3, (10,))
loss = F.cross_entropy(model(x), y)
opt.zero_grad()
loss.backward()
print(model.stem[0].weight.grad)
