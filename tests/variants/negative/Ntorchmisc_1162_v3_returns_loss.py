# source: negative twin of a variant of 1162_mlops_cola_training_step_no_return.py
# framework: torch
# family: F
# kind: other-training-step-returns-none
# negative: the subclass's training_step returns the loss
# mimics: positive/1162_v3_inherited_base_module.py
# expect: no finding
# checked: ran with lightning 2.6.6; weights change after the epoch
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning.pytorch as pl


class BaseModel(pl.LightningModule):
    def __init__(self, lr=1e-2):
        super().__init__()
        self.lr = lr

    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=self.lr)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10)
        return [opt], [sched]


class Regressor(BaseModel):
    def __init__(self, in_dim=6, **kwargs):
        super().__init__(**kwargs)
        self.model = nn.Sequential(nn.Linear(in_dim, 16), nn.Tanh(), nn.Linear(16, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self.model(x)
        loss = F.smooth_l1_loss(y_hat, y)
        self.log("train/loss", loss, on_step=True, on_epoch=True)
        return loss


if __name__ == "__main__":
    ds = torch.utils.data.TensorDataset(torch.randn(32, 6), torch.randn(32, 1))
    model = Regressor()
    before = model.model[0].weight.detach().clone()
    trainer = pl.Trainer(max_epochs=1, accelerator="cpu", logger=False, enable_checkpointing=False,
                         enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, torch.utils.data.DataLoader(ds, batch_size=8))
    print("weights changed:", not torch.equal(before, model.model[0].weight))
