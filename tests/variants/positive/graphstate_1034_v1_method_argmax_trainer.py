# source: variant of 1034_cdpn_argmax_coordinates_loss.py
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: keypoint/coordinate decoding with heatmap.argmax(dim=...) (method spelling) inside a trainer method, then an L1 loss on the decoded coordinates: no grad_fn
# expect: line 20 — heatmaps.flatten(2).argmax(dim=2) decodes integer coordinates
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeypointTrainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters())

    def decode(self, heatmaps):
        w = heatmaps.shape[-1]
        idx = heatmaps.flatten(2).argmax(dim=2)
        return torch.stack([idx % w, idx // w], dim=-1).float() / w

    def train_step(self, img, kpts):
        coords = self.decode(self.model(img))
        loss = F.l1_loss(coords, kpts)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


KeypointTrainer(nn.Conv2d(3, 4, 1)).train_step(torch.rand(2, 3, 8, 8), torch.rand(2, 4, 2))
