# source: https://github.com/bubbliiiing/yolo3-pytorch/issues/3
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: fit_one_epoch accumulates total_loss += loss (and val_loss += loss) with the loss tensors themselves, the pre-0.4 idiom; every batch's graph is kept for the whole epoch
# expect: line 35 — total_loss += loss keeps each batch's graph alive until the end of the epoch; use loss.item()
# checked: ran, reproduces (total_loss carries a grad_fn)

import torch
import torch.nn as nn


def yolo_loss(output, targets):
    return output.pow(2).mean(), 1


def fit_one_epoch(net, yolo_losses, optimizer, gen, epoch_size):
    total_loss = 0
    net.train()
    for iteration, batch in enumerate(gen):
        if iteration >= epoch_size:
            break
        images, targets = batch[0], batch[1]
        optimizer.zero_grad()
        outputs = net(images)
        losses = []
        num_pos_all = 0
        for i in range(3):
            loss_item, num_pos = yolo_losses(outputs[i], targets)
            losses.append(loss_item)
            num_pos_all += num_pos
        loss = sum(losses) / num_pos_all
        loss.backward()
        optimizer.step()
        total_loss += loss
    return total_loss / (iteration + 1)


class YoloBody(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleList([nn.Conv2d(3, 4, 1) for _ in range(3)])

    def forward(self, x):
        return [h(x) for h in self.heads]


net = YoloBody()
optimizer = torch.optim.Adam(net.parameters(), 1e-3)
gen = [(torch.randn(2, 3, 8, 8), None) for _ in range(3)]
total = fit_one_epoch(net, yolo_loss, optimizer, gen, 3)
