# source: https://github.com/Lightning-AI/pytorch-lightning/issues/15765
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: a physics-informed loss needs d(u_hat)/dx, but Lightning runs validation_step with gradients disabled (inference mode), so torch.autograd.grad on the output fails there; wrapping it in torch.set_grad_enabled(True) did not help
# expect: line 27 — autograd.grad inside validation_step: the trainer disables grad for evaluation loops, so u_hat has no graph to x
# checked: ran, reproduces (RuntimeError under Trainer.validate)

import torch
import pytorch_lightning as pl
from torch.utils.data import DataLoader, TensorDataset


class PINN(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))

    def validation_step(self, batch: torch.Tensor, batch_idx: int):
        x, t = batch
        x.requires_grad_(True)
        u_hat = self.forward(x, t)

        dydx = torch.autograd.grad(
            u_hat,
            x,
            grad_outputs=torch.ones_like(u_hat),
            create_graph=True
        )[0]

        physics_loss = (torch.sin(x) - dydx).pow(2).mean()
        self.log("val_loss", physics_loss)
        return {"loss": physics_loss}


model = PINN()
val_loader = DataLoader(TensorDataset(torch.rand(16, 1), torch.rand(16, 1)), batch_size=8)
trainer = pl.Trainer(logger=False, enable_progress_bar=False, enable_model_summary=False, enable_checkpointing=False)
trainer.validate(model, val_loader)
