# source: variant of 1086_lightning_pinn_validation_step_grad.py
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: the PINN's residual (which differentiates u with torch.autograd.grad) lives in a helper method shared by training_step and validation_step; Lightning runs validation_step with grad disabled, so the call from validation fails
# expect: line 24 — autograd.grad in the residual helper, reached from validation_step where grad is disabled
# checked: parse only (pytorch_lightning not installed here); the original of this pattern raised RuntimeError under Trainer.validate
import torch
import lightning.pytorch as pl
from torch.utils.data import DataLoader, TensorDataset


class PINN(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))

    def residual(self, x, t):
        x = x.requires_grad_(True)
        u = self(x, t)
        (u_x,) = torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)
        return (u_x - torch.sin(x)).pow(2).mean()

    def training_step(self, batch, batch_idx):
        loss = self.residual(*batch)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        loss = self.residual(*batch)
        self.log("val_loss", loss)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


loader = DataLoader(TensorDataset(torch.rand(16, 1), torch.rand(16, 1)), batch_size=8)
trainer = pl.Trainer(max_epochs=1, logger=False, enable_checkpointing=False)
trainer.fit(PINN(), loader, loader)
