# source: https://github.com/alexrich021/3dvnet/issues/11
# framework: torch
# family: D
# kind: frozen-but-trained
# pitfall: the MnasNet feature backbone is "frozen" by calling .eval() in the training step, but all of self.mvsnet's parameters are in the optimizer, so the backbone weights keep changing
# expect: line 47 — the optimizer receives every mvsnet parameter, including the backbone that .eval() was supposed to freeze (eval only changes BatchNorm/Dropout)
# checked: ran, reproduces (backbone weights change after a step)

import torch
import torch.nn as nn


class FeatExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())

    def forward(self, x):
        return self.layers(x)


class MVSNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat_extractor = FeatExtractor()
        self.feat_shrinker = nn.Conv2d(8, 4, 1)
        self.depth_head = nn.Conv2d(4, 1, 1)

    def forward(self, x):
        return self.depth_head(self.feat_shrinker(self.feat_extractor(x)))


class PLModel(nn.Module):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.mvsnet = MVSNet()
        self.lr = lr

    def training_step(self, batch, batch_idx):
        self.mvsnet.feat_extractor.eval()
        images, depth_gt = batch
        depth_pred = self.mvsnet(images)
        return nn.functional.l1_loss(depth_pred, depth_gt)

    def configure_optimizers(self):
        optimizer = torch.optim.Adam([
            {'params': self.mvsnet.parameters()},
        ], lr=self.lr)
        return optimizer


model = PLModel()
opt = model.configure_optimizers()
before = [p.clone() for p in model.mvsnet.feat_extractor.parameters()]
loss = model.training_step((torch.randn(2, 3, 8, 8), torch.rand(2, 1, 8, 8)), 0)
opt.zero_grad()
loss.backward()
opt.step()
