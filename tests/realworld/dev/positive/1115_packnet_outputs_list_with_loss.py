# source: https://github.com/TRI-ML/packnet-sfm/pull/51
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the trainer appends every training_step output dict, whose 'loss' still carries the graph, to the epoch's outputs list for training_epoch_end, leaking the memory of every step
# expect: line 36 — outputs.append(output) keeps output['loss'] (with its graph) for the whole epoch; the merged fix detaches the loss first
# checked: ran, reproduces (the stored losses keep their grad_fn)

import torch
import torch.nn as nn


class ModelWrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.depth_net = nn.Conv2d(3, 1, 3, padding=1)

    def training_step(self, batch, *args):
        depth = self.depth_net(batch['rgb'])
        loss = depth.abs().mean()
        return {'loss': loss, 'metrics': {'depth_mean': depth.mean().item()}}

    def training_epoch_end(self, outputs):
        return {'avg_train-loss': torch.stack([o['loss'] for o in outputs]).mean()}


class HorovodTrainer:
    def train(self, dataloader, module, optimizer):
        module.train()
        outputs = []
        for i, batch in enumerate(dataloader):
            optimizer.zero_grad()
            output = module.training_step(batch, i)
            output['loss'].backward()
            optimizer.step()
            outputs.append(output)
        return module.training_epoch_end(outputs)


module = ModelWrapper()
optimizer = torch.optim.Adam(module.parameters(), lr=2e-4)
dataloader = [{'rgb': torch.randn(1, 3, 8, 8)} for _ in range(3)]
result = HorovodTrainer().train(dataloader, module, optimizer)
