# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the classic AverageMeter is updated with the loss tensor (losses.update(loss, n)) instead of loss.item(); its self.sum += val * n keeps every batch's graph alive for the epoch
# expect: line 36 — losses.update(loss, ...) hands the graph-carrying loss to the meter, whose sum keeps every batch's graph; pass loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

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
        losses.update(loss, input.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return losses


if __name__ == "__main__":
    model = nn.Linear(8, 3)
    loader = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
    m = train(loader, model, nn.CrossEntropyLoss(), torch.optim.SGD(model.parameters(), lr=0.1), 0)
    pass
