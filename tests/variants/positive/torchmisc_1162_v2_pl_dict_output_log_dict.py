# source: variant of 1162_mlops_cola_training_step_no_return.py
# framework: torch
# family: F
# kind: other-training-step-returns-none
# pitfall: a pytorch_lightning module whose forward returns a dict reads outputs["loss"] in training_step and logs it with self.log_dict, but never returns it; Lightning treats the None return as "skip this batch", so no optimisation step ever runs
# expect: line 32 — training_step ends after self.log_dict(...) without returning outputs["loss"]
# checked: ran with lightning 2.6.6 (lightning.pytorch in place of the pytorch_lightning import, CPU, 1 epoch), reproduces (weights unchanged after the epoch)
import torch
import torch.nn as nn
import torch.nn.functional as F
from pytorch_lightning import LightningModule


class TaggerModule(LightningModule):
    def __init__(self, vocab=40, dim=16, n_tags=5, lr=1e-2):
        super().__init__()
        self.lr = lr
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, input_ids, labels=None):
        logits = self.out(self.emb(input_ids))
        outputs = {"logits": logits}
        if labels is not None:
            outputs["loss"] = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
        return outputs

    def training_step(self, batch, batch_idx):
        outputs = self(**batch)
        preds = outputs["logits"].argmax(-1)
        acc = (preds == batch["labels"]).float().mean()
        self.log_dict({"train_loss": outputs["loss"], "train_acc": acc}, prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.lr)
