# source: https://github.com/Lightning-AI/pytorch-lightning/pull/16520
# framework: torch
# family: B
# kind: history-kept-across-iterations
# pitfall: The migration-guide pattern appends the undetached training loss to self.training_step_outputs in every training_step, so each step's graph is kept until on_train_epoch_end.
# expect: line 29 — self.training_step_outputs.append(loss) in training_step — graph-carrying loss stored across steps
# checked: ran (lightning not installed: LightningModule stubbed, Trainer loop emulated), reproduces (5 stored outputs with grad_fn before epoch end)
import torch
import torch.nn as nn

try:
    import lightning as L
except ImportError:  # stub so the snippet runs without lightning installed
    class L:
        class LightningModule(nn.Module):
            def log(self, name, value, *args, **kwargs):
                pass


class MyLightningModule(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(8, 1)  # stub model
        self.training_step_outputs = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.mse_loss(self.layer(x), y)
        self.training_step_outputs.append(loss)
        return loss

    def on_train_epoch_end(self):
        epoch_average = torch.stack(self.training_step_outputs).mean()
        self.log("training_epoch_average", epoch_average)
        self.training_step_outputs.clear()  # free memory

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


if __name__ == "__main__":
    # stub for Trainer.fit with automatic optimization
    model = MyLightningModule()
    opt = model.configure_optimizers()
    for batch_idx in range(5):
        batch = (torch.randn(4, 8), torch.randn(4, 1))
        opt.zero_grad()
        loss = model.training_step(batch, batch_idx)
        loss.backward()
        opt.step()
    print("stored step outputs carrying graph before epoch end:",
          sum(t.grad_fn is not None for t in model.training_step_outputs))
    model.on_train_epoch_end()
