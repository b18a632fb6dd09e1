# source: https://pytorch.org/tutorials/recipes/recipes/zeroing_out_gradients.html
# family: D
# pitfall: fine-tuning loop with a LR scheduler and gradient clipping, but optimizer.zero_grad() was lost in a refactor
# expect: line 19 — backward() accumulates into the previous gradients because nothing zeroes them between steps

import torch
import torch.nn.functional as F
from torch import nn


def main(epochs=3):
    model = nn.Sequential(nn.Linear(300, 128), nn.ReLU(), nn.Dropout(0.1), nn.Linear(128, 5))
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=1.0, end_factor=0.0, total_iters=epochs * 100)
    for epoch in range(epochs):
        for step in range(100):
            x, y = torch.randn(32, 300), torch.randint(0, 5, (32,))
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()


if __name__ == "__main__":
    main()
