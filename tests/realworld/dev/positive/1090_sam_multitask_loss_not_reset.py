# source: https://github.com/davda54/sam/issues/10
# framework: torch
# family: C
# kind: backward-twice
# pitfall: in the SAM second pass the per-task losses are added onto the same loss variable that already holds the first pass's (backpropagated, freed) sum, so the second loss.backward() reaches the freed graph
# expect: line 67 — loss still contains the first pass's graph; loss += loss_t then loss.backward() walks the freed part again (reset loss = 0 before the second loop)
# checked: ran, reproduces ("Trying to backward through the graph a second time")

import torch
import torch.nn as nn


class TwoStepSGD(torch.optim.SGD):
    def first_step(self, zero_grad=False):
        self.step()
        if zero_grad:
            self.zero_grad()

    def second_step(self, zero_grad=False):
        self.step()
        if zero_grad:
            self.zero_grad()


def get_loss(output, target, t, device, cfg):
    loss_t = nn.functional.binary_cross_entropy_with_logits(output[:, t], target[:, t])
    acc_t = ((output[:, t] > 0).float() == target[:, t]).float().mean()
    return loss_t, acc_t


class Classifier(nn.Module):
    def __init__(self, num_tasks):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(8, num_tasks)

    def forward(self, x):
        return self.head(self.features(x)), None


num_tasks = 3
device = torch.device("cpu")
cfg = None
model = Classifier(num_tasks)
optimizer = TwoStepSGD(model.parameters(), lr=0.01)
loss_sum = [0.0] * num_tasks
acc_sum = [0.0] * num_tasks
image = torch.randn(2, 3, 8, 8)
target = torch.randint(0, 2, (2, num_tasks)).float()

output, logit_map = model(image)

loss = 0
for t in range(num_tasks):
    loss_t, acc_t = get_loss(output, target, t, device, cfg)
    loss += loss_t
    loss_sum[t] += loss_t.item()
    acc_sum[t] += acc_t.item()

optimizer.zero_grad()
loss.backward()
optimizer.first_step(zero_grad=True)
output, logit_map = model(image)

for t in range(num_tasks):
    loss_t, acc_t = get_loss(output, target, t, device, cfg)
    loss += loss_t
    loss_sum[t] += loss_t.item()
    acc_sum[t] += acc_t.item()
loss.backward()
optimizer.second_step(zero_grad=True)
