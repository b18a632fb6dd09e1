# source: https://github.com/Lightning-AI/pytorch-lightning/issues/655
# framework: torch
# family: C
# kind: hidden-state-not-detached
# pitfall: the accepted answer (confirmed by the maintainer): in a LightningModule cache the previous step's hidden state on `self` and store it detached, `self.previous_hidden = detach_tensors(hidden)`.
# expect: no finding
# checked: ran with a LightningModule/fit stub (pytorch_lightning not installed): 4 steps train. training_step body from the answer (completed with batch args / self(...) call); layers stubbed
import torch
import torch.nn as nn

try:
    from pytorch_lightning import LightningModule
except ImportError:
    # --- minimal LightningModule + automatic-optimization loop stub (not from the thread) ---
    class LightningModule(nn.Module):
        pass

    def _fit(module, batches):
        optimizer = module.configure_optimizers()
        for batch_idx, batch in enumerate(batches):
            optimizer.zero_grad()
            loss = module.training_step(batch, batch_idx)
            loss.backward()
            optimizer.step()
            print(batch_idx, loss.item())
    # --- end stub ---


def detach_tensors(h):
    return tuple(t.detach() for t in h)


class model(LightningModule):
    def __init__(self, args):
        super().__init__()
        self.previous_hidden = None  # cache
        # --- layers: stub (the answer elides them) ---
        self.emb = nn.Embedding(40, 16)
        self.rnn = nn.LSTM(16, 32)
        self.out = nn.Linear(32, 40)

    def forward(self, text, hidden):
        o, hidden = self.rnn(self.emb(text), hidden)
        return self.out(o), hidden

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)

    def training_step(self, batch, batch_idx):
        text, target = batch
        output, hidden = self(text, self.previous_hidden)
        self.previous_hidden = detach_tensors(hidden)
        return nn.functional.cross_entropy(output.view(-1, 40), target.view(-1))


if __name__ == "__main__":
    torch.manual_seed(0)
    _fit(model(None), [(torch.randint(0, 40, (10, 4)), torch.randint(0, 40, (10, 4))) for _ in range(4)])
