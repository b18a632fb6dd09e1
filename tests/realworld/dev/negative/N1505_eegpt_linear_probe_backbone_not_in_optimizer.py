# source: https://github.com/BINE022/EEGPT/issues/18
# framework: torch
# family: D
# kind: frozen-but-trained
# negative: the pretrained encoder sits between two trainable modules, so gradients must flow through it; it stays frozen because only chan_conv and the two linear probes are given to the optimizer
# mimics: a "frozen" backbone that still receives gradients
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class LitEEGPTCausal(nn.Module):
    def __init__(self):
        super().__init__()
        self.chan_conv = nn.Conv1d(22, 19, 1)
        self.target_encoder = nn.Sequential(nn.Linear(64, 32), nn.GELU(), nn.Linear(32, 32))
        self.linear_probe1 = nn.Linear(32, 16)
        self.linear_probe2 = nn.Linear(19 * 16, 4)
        self.loss_fn = nn.CrossEntropyLoss()

    def forward(self, x):
        x = self.chan_conv(x)
        self.target_encoder.eval()
        z = self.target_encoder(x)
        h = self.linear_probe1(z).flatten(1)
        return self.linear_probe2(h)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logit = self.forward(x)
        return self.loss_fn(logit, y)

    def configure_optimizers(self):
        optimizer = torch.optim.AdamW(
            list(self.chan_conv.parameters()) +
            list(self.linear_probe1.parameters()) +
            list(self.linear_probe2.parameters()),
            weight_decay=0.01)
        return optimizer


model = LitEEGPTCausal()
opt = model.configure_optimizers()
before = [p.clone() for p in model.target_encoder.parameters()]
loss = model.training_step((torch.randn(2, 22, 64), torch.tensor([0, 3])), 0)
opt.zero_grad()
loss.backward()
opt.step()
