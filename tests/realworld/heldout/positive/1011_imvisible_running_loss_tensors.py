# source: https://github.com/samuelyu2002/ImVisible/issues/2
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the training loop adds the loss tensors themselves to running_loss, running_loss_MSE and running_loss_cross_entropy, keeping every batch's graph in RAM
# expect: line 44 — running_loss += loss accumulates a graph-carrying tensor across batches; use loss.item()
# checked: ran, reproduces (running totals keep a grad_fn)

import torch
import torch.nn as nn


class LYTNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classes = nn.Linear(4, 5)
        self.direc = nn.Linear(4, 4)

    def forward(self, x):
        f = self.features(x)
        return self.classes(f), self.direc(f)


net = LYTNet()
optimizer = torch.optim.Adam(net.parameters(), lr=0.001)
loss_fn = nn.CrossEntropyLoss()
MSE_loss = nn.MSELoss()
train_loader = [(torch.randn(2, 3, 32, 32), torch.randint(0, 5, (2,)), torch.randn(2, 4)) for _ in range(3)]

for epoch in range(2):
    running_loss = 0.0
    running_loss_MSE = 0.0
    running_loss_cross_entropy = 0.0
    for i, (images, labels, points) in enumerate(train_loader):
        optimizer.zero_grad()
        pred_classes, pred_direc = net(images)
        MSE = MSE_loss(pred_direc, points)
        cross_entropy = loss_fn(pred_classes, labels)
        loss = MSE + cross_entropy
        loss.backward()
        optimizer.step()

        running_loss += loss
        running_loss_MSE += MSE
        running_loss_cross_entropy += cross_entropy
    print(epoch, running_loss / len(train_loader))
