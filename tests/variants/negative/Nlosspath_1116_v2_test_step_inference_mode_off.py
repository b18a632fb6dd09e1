# source: variant of 1116_lightning_test_step_jacobian_inference_mode.py
# framework: torch
# family: A
# kind: loss-under-no-grad
# negative: fixed twin: the Trainer is built with inference_mode=False (set_grad_enabled(True) then works in test_step)
# expect: no finding
# checked: ran, no error (exit 0; Trainer built with inference_mode=False)

import torch
import pytorch_lightning as pl
from torch.utils.data import DataLoader, TensorDataset


class Potential(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.mlp = torch.nn.Sequential(torch.nn.Linear(3, 16), torch.nn.SiLU(), torch.nn.Linear(16, 1))

    def forward(self, pos):
        return self.mlp(pos).sum()

    def test_step(self, batch, batch_idx):
        pos, ref_forces = batch
        with torch.set_grad_enabled(True):
            pos.requires_grad_(True)
            energy = self(pos)
            forces = -torch.autograd.grad(outputs=[energy], inputs=[pos])[0]
        self.log("test_force_mae", (forces - ref_forces).abs().mean())


loader = DataLoader(TensorDataset(torch.randn(8, 3), torch.randn(8, 3)), batch_size=4)
trainer = pl.Trainer(logger=False, enable_progress_bar=False, enable_model_summary=False, enable_checkpointing=False, inference_mode=False)
trainer.test(Potential(), loader)
