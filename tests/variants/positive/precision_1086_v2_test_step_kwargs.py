# source: variant of 1086_lightning_pinn_validation_step_grad.py
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: test_step computes the PDE residual with torch.autograd.grad(outputs=..., inputs=...); Lightning runs the test loop under inference mode, so the output has no graph to x and the call raises
# expect: line 23 — autograd.grad inside test_step, which Lightning runs with grad disabled
# checked: parse only (pytorch_lightning not installed here); the original of this pattern raised RuntimeError under Trainer.validate
import torch
import pytorch_lightning as pl
from torch.utils.data import DataLoader, TensorDataset


class HeatPINN(pl.LightningModule):
    def __init__(self, hidden=32):
        super().__init__()
        self.model = torch.nn.Sequential(torch.nn.Linear(2, hidden), torch.nn.Tanh(), torch.nn.Linear(hidden, 1))

    def test_step(self, batch, batch_idx):
        x, t = batch
        x.requires_grad_()
        inputs = torch.cat([x, t], dim=1)
        u = self.model(inputs)
        grads = torch.autograd.grad(outputs=u.sum(), inputs=x, create_graph=False)
        residual = grads[0] - torch.cos(x)
        self.log("test_residual", residual.pow(2).mean())


loader = DataLoader(TensorDataset(torch.rand(16, 1), torch.rand(16, 1)), batch_size=8)
pl.Trainer(logger=False).test(HeatPINN(), loader)
