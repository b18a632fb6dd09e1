# source: https://github.com/yastrebksv/TennisCourtDetector/issues/7
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: the train() helper (model and optimizer passed in by main.py) calls loss.backward() and optimizer.step() for every batch but never clears the gradients, so each step applies the sum of the gradients of all batches seen so far
# expect: line 25 — loss.backward() accumulates into the gradients of every previous iteration because optimizer.zero_grad() is never called; the author added it after optimizer.step() (commit e5cd4f1)
# checked: ran (no error; the gradients grow across iterations); base_trainer.py at 582d2be verbatim, with main.py's optimizer/criterion set-up around a small stand-in for BallTrackerNet

import torch
import torch.nn as nn
import torch.nn.functional as F
import numpy as np


def train(model, train_loader, optimizer, criterion, device, epoch, max_iters=1000):
    model.train()
    losses = []
    max_iters = min(max_iters, len(train_loader))

    for iter_id, batch in enumerate(train_loader):
        out = model(batch[0].float().to(device))
        gt_hm_hp = batch[1].float().to(device)
        loss = criterion(F.sigmoid(out), gt_hm_hp)

        loss.backward()
        optimizer.step()
        print('train, epoch = {}, iter_id = {}/{}, loss = {}'.format(epoch, iter_id, max_iters, loss.item()))
        losses.append(loss.item())
        if iter_id > max_iters:
            break

    return np.mean(losses)


if __name__ == '__main__':
    device = 'cuda' if torch.cuda.is_available() else 'cpu'
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 15, 3, padding=1))
    model = model.to(device)
    train_loader = [(torch.rand(2, 3, 32, 32), torch.rand(2, 15, 32, 32)) for _ in range(4)]
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), 1e-5, betas=(0.9, 0.999), weight_decay=0)
    for epoch in range(2):
        train_loss = train(model, train_loader, optimizer, criterion, device, epoch, 1000)
