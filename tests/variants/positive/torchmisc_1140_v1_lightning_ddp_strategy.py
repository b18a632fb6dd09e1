# source: variant of 1140_anchordetr_decoder_unused_self_attn_level.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# pitfall: a LightningModule registers an auxiliary decoder that training_step never reaches; the Trainer runs with strategy="ddp" (find_unused_parameters=False), so DDP's reducer waits for the decoder's gradients and the second training step fails
# expect: line 19 — self.aux_decoder is registered but never used in forward()/training_step; with strategy="ddp" its gradients never arrive
# checked: ran with lightning 2.6.6 (strategy="ddp", 1 CPU process, gloo), reproduces ("It looks like your LightningModule has parameters that were not used in producing the loss returned by training_step" / "Expected to have finished reduction in the prior iteration")
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
    trainer = L.Trainer(max_epochs=1, accelerator="cpu", devices=1, strategy="ddp", logger=False,
                        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(Seq2SeqModule(), torch.utils.data.DataLoader(ds, batch_size=4))
