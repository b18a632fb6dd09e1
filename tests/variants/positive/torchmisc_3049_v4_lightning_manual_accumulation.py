# source: variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# pitfall: a Lightning module with manual optimization accumulates over N batches (self.manual_backward every batch, opt.step() every N) but calls opt.zero_grad() at the top of every training_step, so each step sees only the last batch's gradient
# expect: line 24 — opt.zero_grad() in every training_step while opt.step() runs every N batches: the accumulated gradients are discarded (Lightning's docs clear right after the step)
# checked: ran with lightning 2.6.6 (CPU), reproduces (a step pre-hook counting backward calls since the last clear: [1, 1], each opt.step() sees one batch instead of n_accum)

import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L


class AccumModule(L.LightningModule):
    def __init__(self, n_accum=2):
        super().__init__()
        self.automatic_optimization = False
        self.layer = nn.Linear(8, 2)
        self.n_accum = n_accum

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        opt.zero_grad()
        x, y = batch
        loss = F.cross_entropy(self.layer(x), y) / self.n_accum
        self.manual_backward(loss)
        if (batch_idx + 1) % self.n_accum == 0:
            opt.step()
        self.log("train_loss", loss)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


if __name__ == "__main__":
    ds = torch.utils.data.TensorDataset(torch.randn(16, 8), torch.randint(0, 2, (16,)))
    trainer = L.Trainer(max_epochs=1, accelerator="cpu", logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(AccumModule(), torch.utils.data.DataLoader(ds, batch_size=4))
