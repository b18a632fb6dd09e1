# source: negative twin of 1114_v6_average_meter_update.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: none: the meter is updated with loss.item()
# checked: ran (meter sum is a float)

import torch
import torch.nn as nn


class AverageMeter(object):
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def train(train_loader, model, criterion, optimizer, epoch):
    losses = AverageMeter()
    model.train()
    for i, (input, target) in enumerate(train_loader):
        output = model(input)
        loss = criterion(output, target)
        losses.update(loss.item(), input.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return losses


if __name__ == "__main__":
    model = nn.Linear(8, 3)
    loader = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
    print(train(loader, model, nn.CrossEntropyLoss(), torch.optim.SGD(model.parameters(), lr=0.1), 0).avg)
