# source: https://github.com/vturrisi/solo-learn/issues/135
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: base_forward feeds the online linear classifier with feats.detach() but returns the attached feats; the maintainer's answer: detach() is not in place, so only the classifier's loss is cut from the encoder while the self-supervised loss (computed from out["feats"]) still trains it
# mimics: a loss term computed from detached encoder features
# expect: no finding
# checked: ran, no error (the encoder receives gradient from the contrastive loss, the classifier from the cross-entropy); solo/methods/base.py base_forward/_shared_step/training_step at 9f1b131 (Lightning logging and multicrop dropped) with a SimCLR-style child step and a manual optimizer step

from typing import Any, Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F


class BaseMethod(nn.Module):
    def __init__(self, num_classes=10, features_dim=32, num_crops=2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, features_dim), nn.ReLU())
        self.classifier = nn.Linear(features_dim, num_classes)
        self.num_crops = num_crops

    def base_forward(self, X: torch.Tensor) -> Dict:
        feats = self.encoder(X)
        logits = self.classifier(feats.detach())
        return {"logits": logits, "feats": feats}

    def _shared_step(self, X: torch.Tensor, targets: torch.Tensor) -> Dict:
        out = self.base_forward(X)
        logits = out["logits"]
        loss = F.cross_entropy(logits, targets, ignore_index=-1)
        return {
            "loss": loss,
            **out,
        }

    def training_step(self, batch: List[Any], batch_idx: int) -> Dict[str, Any]:
        _, X, targets = batch

        X = [X] if isinstance(X, torch.Tensor) else X

        outs = [self._shared_step(x, targets) for x in X[: self.num_crops]]
        outs = {k: [out[k] for out in outs] for k in outs[0].keys()}

        # loss and stats
        outs["loss"] = sum(outs["loss"]) / self.num_crops
        return outs


class SimCLR(BaseMethod):
    def __init__(self, proj_output_dim=16, temperature=0.2, **kwargs):
        super().__init__(**kwargs)
        self.temperature = temperature
        self.projector = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, proj_output_dim))

    def training_step(self, batch: List[Any], batch_idx: int) -> torch.Tensor:
        out = super().training_step(batch, batch_idx)
        class_loss = out["loss"]
        feats1, feats2 = out["feats"]

        z1 = F.normalize(self.projector(feats1), dim=-1)
        z2 = F.normalize(self.projector(feats2), dim=-1)
        logits = z1 @ z2.T / self.temperature
        nce_loss = F.cross_entropy(logits, torch.arange(z1.size(0)))

        return nce_loss + class_loss


model = SimCLR()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
images = torch.rand(8, 3, 8, 8)
batch = [None, [images + 0.05 * torch.randn_like(images), images + 0.05 * torch.randn_like(images)],
         torch.randint(0, 10, (8,))]
loss = model.training_step(batch, 0)
optimizer.zero_grad()
loss.backward()
optimizer.step()
