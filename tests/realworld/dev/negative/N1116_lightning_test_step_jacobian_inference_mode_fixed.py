# source: https://github.com/Lightning-AI/pytorch-lightning/issues/19910
# framework: torch
# family: A
# kind: loss-under-no-grad
# negative: the answer's fix (working as intended): the trainer is created with inference_mode=False, so test_step runs under no_grad and enable_grad re-enables autograd
# mimics: positive/1116_lightning_test_step_jacobian_inference_mode.py
# expect: no finding
# checked: ran, no error

import torch
import pytorch_lightning as pl
from torch.utils.data import DataLoader, TensorDataset


class LitModel(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(5, 5)

    def jacobian_check(self):
        with torch.enable_grad():
            N = 5
            f = lambda x: x ** 2
            x = torch.randn(N, requires_grad=True)
            y = f(x)
            I_N = torch.eye(N)
            print(torch.is_inference_mode_enabled())
            jacobian_rows = [torch.autograd.grad(y, x, v, retain_graph=True, allow_unused=True)[0]
                             for v in I_N.unbind()]
            jacobian = torch.stack(jacobian_rows)
        return jacobian

    def validation_step(self, batch, batch_idx):
        self.jacobian_check()

    def test_step(self, batch, batch_idx):
        self.jacobian_check()


loader = DataLoader(TensorDataset(torch.randn(4, 5)), batch_size=2)
trainer = pl.Trainer(inference_mode=False, logger=False, enable_progress_bar=False, enable_model_summary=False, enable_checkpointing=False)
model = LitModel()
trainer.validate(model, loader)
trainer.test(model, loader)
