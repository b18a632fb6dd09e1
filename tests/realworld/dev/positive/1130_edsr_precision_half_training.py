# source: https://github.com/sanghyun-son/EDSR-PyTorch/issues/36
# framework: torch
# family: E
# kind: fp16-master-weights
# pitfall: --precision half converts the whole super-resolution model to float16 with model.half() and trains it with Adam on the float16 weights; every batch's loss is inf and is skipped (the authors: half precision is only supported for testing)
# expect: line 19 — model.half() for training: the optimizer updates float16 master weights (Adam's moments and small updates do not fit in half precision)
# checked: ran, reproduces (after the first Adam step on the float16 weights the loss is nan and batches are skipped)

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, args):
        super(Model, self).__init__()
        self.precision = args.precision
        self.model = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(True), nn.Conv2d(64, 3 * 4, 3, padding=1), nn.PixelShuffle(2))
        if args.precision == 'half':
            self.model.half()

    def forward(self, x):
        return self.model(x)


class Trainer():
    def __init__(self, args, model, loss):
        self.args = args
        self.model = model
        self.loss = loss
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=args.lr)
        self.error_last = 1e8

    def prepare(self, *args):
        def _prepare(tensor):
            if self.args.precision == 'half':
                tensor = tensor.half()
            return tensor
        return [_prepare(a) for a in args]

    def train(self, loader_train):
        self.model.train()
        for batch, (lr, hr) in enumerate(loader_train):
            lr, hr = self.prepare(lr, hr)
            self.optimizer.zero_grad()
            sr = self.model(lr)
            loss = self.loss(sr, hr)
            if loss.item() < self.args.skip_threshold * self.error_last:
                loss.backward()
                self.optimizer.step()
            else:
                print('Skip this batch {}! (Loss: {})'.format(batch + 1, loss.item()))


class Args:
    precision = 'half'
    lr = 1e-4
    skip_threshold = 1e8


args = Args()
trainer = Trainer(args, Model(args), nn.L1Loss())
trainer.train([(torch.rand(1, 3, 8, 8) * 255, torch.rand(1, 3, 16, 16) * 255) for _ in range(2)])
