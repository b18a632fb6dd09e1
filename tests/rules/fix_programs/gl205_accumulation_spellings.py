# safe-fix: GL205
# The accumulation spellings GL205 fixes with `.detach()`: what the program prints (the values
# accumulated, their types, what the Trainer returns) must stay the same after the fix.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        self.total = 0.0
        self.avg = 0.0

    def fit(self, loader):
        for x, y in loader:
            self.optimizer.zero_grad()
            loss = nn.functional.mse_loss(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            self.total += loss
            self.avg = self.avg * 0.9 + 0.1 * loss
        return self.total, self.avg


def train(model, loader, optimizer):
    epoch_loss = torch.zeros(())
    summed = torch.zeros(())
    running = torch.zeros(())
    for x, y in loader:
        optimizer.zero_grad()
        loss = nn.functional.l1_loss(model(x), y)
        loss.backward()
        optimizer.step()
        epoch_loss = epoch_loss.add(loss)
        summed = torch.add(summed, loss)
        running.add_(loss)
    return epoch_loss, summed, running


loader = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]
total, avg = Trainer(nn.Linear(3, 1)).fit(loader)
print(type(total).__name__, round(total.item(), 4), round(avg.item(), 4))
m = nn.Linear(3, 1)
for v in train(m, loader, torch.optim.SGD(m.parameters(), lr=0.1)):
    print(type(v).__name__, round(v.item(), 4), v.shape)
