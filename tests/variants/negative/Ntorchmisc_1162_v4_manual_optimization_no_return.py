# source: negative twin of a variant of 1162_mlops_cola_training_step_no_return.py
# framework: torch
# family: F
# kind: other-training-step-returns-none
# negative: with automatic_optimization = False the module does its own manual_backward and opt.step(); Lightning ignores training_step's return value, so returning nothing is fine
# mimics: positive/1162_v1_shared_step_no_return.py
# expect: no finding
# checked: ran with lightning 2.6.6 (CPU, 1 epoch); weights change after the epoch
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L


class LitClassifier(L.LightningModule):
    def __init__(self, in_dim=10, n_classes=3, lr=1e-2):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()
        self.log("train_loss", loss, prog_bar=True)

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
