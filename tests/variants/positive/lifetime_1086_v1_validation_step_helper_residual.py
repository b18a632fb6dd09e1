# source: variant of 1086_lightning_pinn_validation_step_grad.py
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: the PINN's residual helper (self.pde_residual) calls torch.autograd.grad on the network output; validation_step uses the helper, but Lightning runs validation with gradients disabled, so the output has no graph to x there
# expect: line 24 — autograd.grad inside a helper called from validation_step: the evaluation loop disables grad, so u has no graph to x
# checked: ran with a stub LightningModule, calling the step under torch.no_grad()/inference_mode as the evaluation loop does (pytorch_lightning not installed here): RuntimeError "element 0 of tensors does not require grad"; training_step works

import torch
import pytorch_lightning as pl


class PINN(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(2, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))

    def pde_residual(self, x, t):
        x = x.requires_grad_(True)
        u = self(x, t)
        u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
        return u_x - torch.cos(x)

    def training_step(self, batch, batch_idx):
        x, t = batch
        loss = self.pde_residual(x, t).pow(2).mean()
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, t = batch
        loss = self.pde_residual(x, t).pow(2).mean()
        self.log("val_loss", loss)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
