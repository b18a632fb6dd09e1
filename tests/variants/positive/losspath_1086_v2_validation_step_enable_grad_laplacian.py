# source: variant of 1086_lightning_pinn_validation_step_grad.py
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: a Poisson PINN evaluates its residual in validation_step under `with torch.enable_grad():`, taking u_xx with two torch.autograd.grad calls; Lightning's evaluation loop runs in inference mode, which enable_grad does not undo, so the first autograd.grad fails
# expect: line 35 — autograd.grad inside validation_step: the trainer's inference mode leaves u with no graph to x, even under enable_grad
# checked: ran, reproduces (RuntimeError under Trainer.validate)

import torch
import pytorch_lightning as pl
from torch.utils.data import DataLoader, TensorDataset


class PoissonPINN(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.u = torch.nn.Sequential(torch.nn.Linear(1, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1))

    def residual(self, x):
        u = self.u(x)
        u_x = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
        u_xx = torch.autograd.grad(u_x.sum(), x, create_graph=True)[0]
        return u_xx + torch.sin(x)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        x = x.clone().requires_grad_(True)
        return self.residual(x).pow(2).mean()

    def validation_step(self, batch, batch_idx):
        (x,) = batch
        with torch.enable_grad():
            x = x.clone().requires_grad_(True)
            u = self.u(x)
            u_x = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
            u_xx = torch.autograd.grad(u_x.sum(), x)[0]
        val_loss = (u_xx + torch.sin(x)).pow(2).mean()
        self.log("val_residual", val_loss)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


model = PoissonPINN()
loader = DataLoader(TensorDataset(torch.rand(16, 1)), batch_size=8)
trainer = pl.Trainer(logger=False, enable_progress_bar=False, enable_model_summary=False, enable_checkpointing=False)
trainer.validate(model, loader)
