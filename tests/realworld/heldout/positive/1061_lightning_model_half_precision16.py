# source: https://github.com/Lightning-AI/pytorch-lightning/issues/5140
# framework: torch
# family: E
# kind: fp16-master-weights
# pitfall: the LightningModule is converted with model.half() and then trained with precision=16 (native AMP), so the parameters and their gradients are float16 and the GradScaler refuses them ("Attempting to unscale FP16 gradients")
# expect: line 37 — model.half() makes the master weights float16; mixed precision needs float32 parameters (let precision=16 autocast instead)
# checked: parse only (needs pytorch_lightning and a GPU)

import torch
import pytorch_lightning as pl
from torch import nn


class Model(pl.LightningModule):
    def __init__(self, n_class, lr, **kwargs):
        super().__init__()
        self.nets = nn.ModuleList([nn.Sequential(nn.Flatten(), nn.Linear(3 * 224 * 224, n_class)) for _ in range(7)])
        self.cur_net = self.nets[0]
        self.lr = lr

    def set_net(self, i):
        self.cur_net = self.nets[i]

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self.cur_net(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.cur_net.parameters(), lr=self.lr)


config = {'n_class': 2, 'batch_size': 32, 'epochs': 30, 'lr': 0.001, 'size': 224, 'folds': 7}


def train(data_module):
    model = Model(**config)
    model.half()
    for i in range(config['folds']):
        model.set_net(i)
        trainer = pl.Trainer(max_epochs=config['epochs'], gpus=[0, ], precision=16)
        trainer.fit(model=model,
                    train_dataloader=data_module.train_dataloader(i),
                    val_dataloaders=data_module.val_dataloader(i))
