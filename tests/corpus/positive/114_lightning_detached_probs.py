# source: synthetic
# family: A
# pitfall: Lightning training_step detaches the probabilities to compute accuracy, then reuses the same detached tensor for the NLL loss
# expect: line 22 — the loss depends on the model only through probs, which was detached: the returned loss has no grad_fn

import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch import nn


class LitMLP(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 256), nn.ReLU(), nn.Linear(256, 10))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        probs = self(x).softmax(dim=-1).detach()
        acc = (probs.argmax(-1) == y).float().mean()
        loss = F.nll_loss(torch.log(probs + 1e-8), y)
        self.log_dict({"train_acc": acc, "train_loss": loss})
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)
