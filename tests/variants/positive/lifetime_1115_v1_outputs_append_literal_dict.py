# source: variant of 1115_packnet_outputs_list_with_loss.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the hand-written trainer appends {"loss": loss, ...} for every step to step_outputs for the epoch-end hook; the stored loss keeps its graph, leaking every step's memory
# expect: line 34 — step_outputs.append({"loss": loss, ...}) keeps each step's graph for the whole epoch; store loss.detach()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn


class Module(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Conv2d(3, 1, 3, padding=1)

    def training_step(self, batch):
        depth = self.net(batch)
        return depth.abs().mean(), depth

    def on_epoch_end(self, outputs):
        return torch.stack([o["loss"] for o in outputs]).mean()


class Trainer:
    def fit_epoch(self, module, optimizer, loader):
        step_outputs = []
        for batch in loader:
            optimizer.zero_grad()
            loss, depth = module.training_step(batch)
            loss.backward()
            optimizer.step()
            step_outputs.append({"loss": loss, "depth_mean": depth.mean().item()})
        return module.on_epoch_end(step_outputs)


if __name__ == "__main__":
    m = Module()
    out = Trainer().fit_epoch(m, torch.optim.Adam(m.parameters()), [torch.randn(1, 3, 8, 8) for _ in range(3)])
    pass
