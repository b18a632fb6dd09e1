# source: negative twin of a variant of 1140_anchordetr_decoder_unused_self_attn_level.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# negative: the Trainer uses strategy="ddp_find_unused_parameters_true" (the fix Lightning's error message names)
# mimics: positive/1140_v1_lightning_ddp_strategy.py
# expect: no finding
# checked: ran with lightning 2.6.6, 1 epoch completes
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L


class Seq2SeqModule(L.LightningModule):
    def __init__(self, d_model=16):
        super().__init__()
        self.encoder = nn.GRU(d_model, d_model, batch_first=True)
        self.decoder = nn.Linear(d_model, d_model)
        self.aux_decoder = nn.Linear(d_model, d_model)

    def forward(self, x):
        h, _ = self.encoder(x)
        return self.decoder(h)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    ds = torch.utils.data.TensorDataset(torch.randn(16, 5, 16), torch.randn(16, 5, 16))
    trainer = L.Trainer(max_epochs=1, accelerator="cpu", devices=1, strategy="ddp_find_unused_parameters_true", logger=False,
                        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(Seq2SeqModule(), torch.utils.data.DataLoader(ds, batch_size=4))
