# source: https://github.com/jokester-zzz/SSA-SC/issues/2
# framework: torch
# family: C
# kind: history-kept-across-iterations
# negative: the fix agreed by the maintainer: the tracker adds loss[key].item()
# mimics: positive/1012_lmscnet_loss_dict_tracker.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F


class LossesTrackEpoch:
    def __init__(self):
        self.train_losses = {}
        self.train_iteration_counts = 0

    def update_train_losses(self, loss):
        for key in loss:
            if key not in self.train_losses:
                self.train_losses[key] = 0
            self.train_losses[key] += loss[key].item()
        self.train_iteration_counts += 1


class LMSCNet_SS(nn.Module):
    def __init__(self):
        super().__init__()
        self.seg = nn.Conv2d(4, 3, 1)

    def forward(self, data):
        return {'pred_semantic_1_1': self.seg(data['occupancy'])}

    def compute_loss(self, scores, data):
        loss_1_1 = F.cross_entropy(scores['pred_semantic_1_1'], data['3D_LABEL'])
        return {'total': loss_1_1, 'semantic_1_1': loss_1_1}


model = LMSCNet_SS()
optimizer = torch.optim.Adam(model.parameters())
losses_track = LossesTrackEpoch()
dset = [{'occupancy': torch.randn(1, 4, 8, 8), '3D_LABEL': torch.randint(0, 3, (1, 8, 8))} for _ in range(3)]

for t, data in enumerate(dset):
    scores = model(data)
    loss = model.compute_loss(scores, data)
    optimizer.zero_grad()
    loss['total'].backward()
    optimizer.step()
    losses_track.update_train_losses(loss)

epoch_loss = losses_track.train_losses['total'] / losses_track.train_iteration_counts
