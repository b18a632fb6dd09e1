# source: negative twin of a variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# negative: Lightning's documented manual accumulation: opt.step() then opt.zero_grad() inside the every-N branch
# mimics: positive/3049_v4_lightning_manual_accumulation.py
# expect: no finding
# checked: ran with lightning 2.6.6; the step pre-hook counts [2, 2] backward calls per step

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
        x, y = batch
        loss = F.cross_entropy(self.layer(x), y) / self.n_accum
        self.manual_backward(loss)
        if (batch_idx + 1) % self.n_accum == 0:
            opt.step()
            opt.zero_grad()
        self.log("train_loss", loss)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


if __name__ == "__main__":
    ds = torch.utils.data.TensorDataset(torch.randn(16, 8), torch.randint(0, 2, (16,)))
    trainer = L.Trainer(max_epochs=1, accelerator="cpu", logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(AccumModule(), torch.utils.data.DataLoader(ds, batch_size=4))
