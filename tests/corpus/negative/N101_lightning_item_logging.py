# source: https://lightning.ai/docs/pytorch/stable/common/lightning_module.html
# family: A
# negative: Lightning training_step returns the loss tensor itself; .item() and argmax are used only for the logged values
# mimics: .item() / argmax inside a Lightning training_step
# expect: no finding

import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch import nn


class LitClassifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 128), nn.ReLU(), nn.Linear(128, 10))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(dim=-1) == y).float().mean().item()
        self.log_dict({"train_loss": loss.item(), "train_acc": acc}, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
