# source: https://github.com/fengxinjie/Transformer-OCR/issues/7
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: SimpleLossCompute calls loss.backward() even when it is used for the test loss (opt=None); the gradients of the evaluation batches stay in .grad and are added into the next training step
# expect: line 32 — backward runs during evaluation and nothing clears those gradients before the next training batch's backward/step (the clearing happens only after a step)
# checked: ran, reproduces (evaluation leaves non-zero gradients that the next training step adds to)

import torch
import torch.nn as nn


class NoamOpt:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    def step(self):
        self.optimizer.step()


class SimpleLossCompute:
    "A simple loss compute and train function."
    def __init__(self, generator, criterion, opt=None):
        self.generator = generator
        self.criterion = criterion
        self.opt = opt

    def __call__(self, x, y, norm):
        x = self.generator(x)
        loss = self.criterion(x.contiguous().view(-1, x.size(-1)),
                              y.contiguous().view(-1)) / norm
        loss.backward()
        if self.opt is not None:
            self.opt.step()
            self.opt.optimizer.zero_grad()
        return loss.item() * norm


def run_epoch(dataloader, model, loss_compute):
    total_loss = 0
    for x, y in dataloader:
        out = model(x)
        total_loss += loss_compute(out, y, y.numel())
    return total_loss


model = nn.Linear(8, 8)
generator = nn.Linear(8, 10)
criterion = nn.CrossEntropyLoss()
model_opt = NoamOpt(torch.optim.Adam(list(model.parameters()) + list(generator.parameters()), lr=0))
train_dataloader = [(torch.randn(2, 4, 8), torch.randint(0, 10, (2, 4))) for _ in range(2)]
val_dataloader = [(torch.randn(2, 4, 8), torch.randint(0, 10, (2, 4))) for _ in range(2)]

for epoch in range(2):
    model.train()
    run_epoch(train_dataloader, model, SimpleLossCompute(generator, criterion, model_opt))
    model.eval()
    test_loss = run_epoch(val_dataloader, model, SimpleLossCompute(generator, criterion, None))
