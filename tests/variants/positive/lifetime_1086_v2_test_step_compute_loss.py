# source: variant of 1086_lightning_pinn_validation_step_grad.py
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: test_step reuses compute_loss, which needs the gradient of the potential with respect to the positions (forces = -dE/dx via autograd.grad); Lightning's test loop runs under inference mode, so the energy has no graph to the positions
# expect: line 24 — autograd.grad in compute_loss reached from test_step, which Lightning runs with grad disabled
# checked: ran with a stub LightningModule, calling the step under torch.no_grad()/inference_mode as the evaluation loop does (pytorch_lightning not installed here): RuntimeError "element 0 of tensors does not require grad"; training_step works

import torch
import torch.nn as nn
import torch.nn.functional as F
import pytorch_lightning as pl


class ForceField(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.energy = nn.Sequential(nn.Linear(3, 32), nn.SiLU(), nn.Linear(32, 1))

    def compute_loss(self, batch):
        pos, f_true = batch
        pos.requires_grad_(True)
        e = self.energy(pos).sum()
        forces = -torch.autograd.grad(e, pos, create_graph=self.training)[0]
        return F.mse_loss(forces, f_true)

    def training_step(self, batch, batch_idx):
        loss = self.compute_loss(batch)
        self.log("train/loss", loss)
        return loss

    def test_step(self, batch, batch_idx):
        loss = self.compute_loss(batch)
        self.log("test/loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
