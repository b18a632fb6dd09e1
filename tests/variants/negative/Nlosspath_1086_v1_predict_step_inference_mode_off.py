# source: variant of 1086_lightning_pinn_validation_step_grad.py
# framework: torch
# family: A
# kind: loss-under-no-grad
# negative: fixed twin: the Trainer is built with inference_mode=False and the saliency is computed under torch.enable_grad()
# expect: no finding
# checked: ran, no error (exit 0; Trainer built with inference_mode=False)

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
        with torch.enable_grad():
            x = x.clone().requires_grad_(True)
            logits = self(x)
            score = logits.max(dim=1).values.sum()
            saliency = torch.autograd.grad(score, x)[0]
        return saliency.abs()


model = Classifier()
loader = DataLoader(TensorDataset(torch.randn(8, 8)), batch_size=4)
trainer = pl.Trainer(logger=False, enable_progress_bar=False, enable_model_summary=False, enable_checkpointing=False, inference_mode=False)
trainer.predict(model, loader)
