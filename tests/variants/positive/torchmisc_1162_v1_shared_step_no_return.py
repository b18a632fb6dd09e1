# source: variant of 1162_mlops_cola_training_step_no_return.py
# framework: torch
# family: F
# kind: other-training-step-returns-none
# pitfall: the LightningModule factors its train/val logic into _shared_step, which returns the loss, but training_step only calls it and logs; training_step returns None, so Lightning skips optimisation for every batch and the model never trains
# expect: line 33 — training_step ends without returning the loss from self._shared_step(...): Lightning skips the backward and optimizer step for every batch
# checked: ran with lightning 2.6.6 (CPU, 1 epoch), reproduces (weights unchanged after the epoch; Lightning warns that training_step returned None)
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L


class LitClassifier(L.LightningModule):
    def __init__(self, in_dim=10, n_classes=3, lr=1e-2):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)

    def _shared_step(self, batch, stage):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(-1) == y).float().mean()
        self.log(f"{stage}_loss", loss, prog_bar=True)
        self.log(f"{stage}_acc", acc)
        return loss

    def training_step(self, batch, batch_idx):
        loss = self._shared_step(batch, "train")

    def validation_step(self, batch, batch_idx):
        self._shared_step(batch, "val")

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    ds = torch.utils.data.TensorDataset(torch.randn(32, 10), torch.randint(0, 3, (32,)))
    model = LitClassifier()
    before = model.net[0].weight.detach().clone()
    trainer = L.Trainer(max_epochs=1, accelerator="cpu", logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, torch.utils.data.DataLoader(ds, batch_size=8))
    print("weights changed:", not torch.equal(before, model.net[0].weight))
