# source: variant of 1065_backward_create_graph_tanh_leak.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: a Lightning module with manual optimization adds an input-gradient (R1) penalty with self.manual_backward(loss, create_graph=True); manual_backward forwards create_graph to loss.backward, so the parameters' .grad carry a graph that references them (a reference cycle kept every step)
# expect: line 28 — manual_backward(..., create_graph=True) stores graph-carrying gradients in .grad; compute the penalty gradient with torch.autograd.grad(..., create_graph=True)
# checked: ran with lightning 2.6.6 (CPU, 2 steps), reproduces (the "reference cycle" UserWarning; the parameters' .grad carry a grad_fn)

import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L


class R1Classifier(L.LightningModule):
    def __init__(self, gamma=0.1):
        super().__init__()
        self.automatic_optimization = False
        self.net = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 2))
        self.gamma = gamma

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        x, y = batch
        x.requires_grad_(True)
        loss = F.cross_entropy(self.net(x), y)
        opt.zero_grad()
        self.manual_backward(loss, create_graph=True)
        r1 = x.grad.pow(2).sum() * self.gamma
        self.manual_backward(r1)
        opt.step()
        self.log("loss", loss)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


if __name__ == "__main__":
    data = torch.utils.data.TensorDataset(torch.randn(8, 6), torch.randint(0, 2, (8,)))
    model = R1Classifier()
    trainer = L.Trainer(max_epochs=1, accelerator="cpu", logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, torch.utils.data.DataLoader(data, batch_size=4))
    print(model.net[0].weight.grad.grad_fn)
