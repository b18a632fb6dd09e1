# source: synthetic
# family: A
# pitfall: Lightning training_step computes the loss with sklearn's log_loss on NumPy probabilities and wraps it in torch.tensor(requires_grad=True)
# expect: line 23 — .numpy() on the softmax output cuts the graph; the returned loss is a new leaf and the model parameters receive no gradient

import pytorch_lightning as pl
import torch
from sklearn.metrics import log_loss


class TextClassifier(pl.LightningModule):
    def __init__(self, vocab=5000, dim=64, n_cls=4):
        super().__init__()
        self.emb = torch.nn.EmbeddingBag(vocab, dim)
        self.fc = torch.nn.Linear(dim, n_cls)

    def forward(self, tokens, offsets):
        return self.fc(self.emb(tokens, offsets))

    def training_step(self, batch, batch_idx):
        tokens, offsets, labels = batch
        logits = self(tokens, offsets)
        probs = logits.softmax(dim=-1).detach().cpu().numpy()
        value = log_loss(labels.cpu().numpy(), probs, labels=list(range(4)))
        loss = torch.tensor(value, requires_grad=True, device=self.device)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
