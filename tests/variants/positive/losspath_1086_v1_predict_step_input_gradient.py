# source: variant of 1086_lightning_pinn_validation_step_grad.py
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: a saliency map is computed in predict_step with torch.autograd.grad of the score with respect to the input; Lightning runs the predict loop in inference mode, so the score has no graph to the input and autograd.grad fails there
# expect: line 27 — autograd.grad inside predict_step: Trainer.predict disables grad (inference mode), so score has no graph to x
# checked: ran, reproduces (RuntimeError under Trainer.predict: element 0 of tensors does not require grad / inference tensor)

import torch
import pytorch_lightning as pl
from torch.utils.data import DataLoader, TensorDataset


class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))

    def forward(self, x):
        return self.net(x)

    def predict_step(self, batch, batch_idx, dataloader_idx=0):
        (x,) = batch
        x = x.clone().requires_grad_(True)
        logits = self(x)
        score = logits.max(dim=1).values.sum()
        saliency = torch.autograd.grad(score, x)[0]
        return saliency.abs()


model = Classifier()
loader = DataLoader(TensorDataset(torch.randn(8, 8)), batch_size=4)
trainer = pl.Trainer(logger=False, enable_progress_bar=False, enable_model_summary=False, enable_checkpointing=False)
trainer.predict(model, loader)
