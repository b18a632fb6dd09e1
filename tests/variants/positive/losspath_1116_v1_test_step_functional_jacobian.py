# source: variant of 1116_lightning_test_step_jacobian_inference_mode.py
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: test_step measures the Jacobian norm of the model with torch.autograd.functional.jacobian under torch.enable_grad(); the trainer runs test_step in inference mode, which enable_grad does not undo, so the Jacobian comes out as zeros there
# expect: line 25 — torch.autograd.functional.jacobian inside test_step: the trainer's inference mode makes every tensor there an inference tensor without graph
# checked: ran, reproduces (no error: jacobian silently returns all zeros under inference mode, jac_norm is logged as 0.0)

import torch
import pytorch_lightning as pl
from torch.utils.data import DataLoader, TensorDataset


class LitModel(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(5, 5)

    def forward(self, x):
        return torch.tanh(self.layer(x))

    def test_step(self, batch, batch_idx):
        (x,) = batch
        with torch.enable_grad():
            jac = torch.autograd.functional.jacobian(self.forward, x[0])
        self.log("jac_norm", jac.norm())


loader = DataLoader(TensorDataset(torch.randn(4, 5)), batch_size=2)
trainer = pl.Trainer(logger=False, enable_progress_bar=False, enable_model_summary=False, enable_checkpointing=False)
trainer.test(LitModel(), loader)
