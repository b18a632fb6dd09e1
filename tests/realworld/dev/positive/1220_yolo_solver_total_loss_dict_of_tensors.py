# source: https://github.com/MultimediaTechLab/YOLO/pull/83
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: ModelTrainer.train_one_epoch sums the per-batch loss dict returned by train_one_batch into a defaultdict of tensors; each entry of loss_item is a graph-carrying loss term, so total_loss keeps every batch's autograd graph alive until the epoch ends (1-2 MB leaked per batch)
# expect: line 86 — total_loss[loss_name] += loss_val * batch_size accumulates tensors with history; the merged fix uses a defaultdict(float) and loss_val.item() * batch_size
# checked: ran, reproduces (the epoch totals carry a grad_fn, i.e. the graphs of all batches are kept); yolo/tools/solver.py at dea5a8a^ reduced (DDP, EMA, validation and progress logging dropped; a small conv model and a three-term DualLoss stand-in; torch.cuda.amp as in the original, disabled on CPU)

from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor
from torch.cuda.amp import GradScaler, autocast


class DualLoss:
    def __init__(self, iou_rate=7.5, dfl_rate=1.5, cls_rate=0.5, aux_rate=0.25) -> None:
        self.iou_rate, self.dfl_rate, self.cls_rate, self.aux_rate = iou_rate, dfl_rate, cls_rate, aux_rate

    def loss(self, predicts, targets):
        return F.l1_loss(predicts[:, :4], targets[:, :4]), F.mse_loss(predicts[:, 4:8], targets[:, 4:8]), \
            F.binary_cross_entropy_with_logits(predicts[:, 8:], targets[:, 8:])

    def __call__(self, aux_predicts: Tensor, main_predicts: Tensor, targets: Tensor):
        aux_iou, aux_dfl, aux_cls = self.loss(aux_predicts, targets)
        main_iou, main_dfl, main_cls = self.loss(main_predicts, targets)

        loss_dict = {
            "BoxLoss": self.iou_rate * (aux_iou * self.aux_rate + main_iou),
            "DFLoss": self.dfl_rate * (aux_dfl * self.aux_rate + main_dfl),
            "BCELoss": self.cls_rate * (aux_cls * self.aux_rate + main_cls),
        }
        loss_sum = sum(list(loss_dict.values())) / len(loss_dict)
        return loss_sum, loss_dict


class YOLO(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.SiLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.aux = nn.Linear(8, 10)
        self.main = nn.Linear(8, 10)

    def forward(self, x):
        h = self.backbone(x)
        return {"AUX": self.aux(h), "Main": self.main(h)}


class ModelTrainer:
    def __init__(self, model: YOLO, device):
        self.model = model
        self.device = device
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937)
        self.loss_fn = DualLoss()
        self.vec2box = lambda predicts: predicts
        self.scaler = GradScaler()

    def train_one_batch(self, images: Tensor, targets: Tensor):
        images, targets = images.to(self.device), targets.to(self.device)
        self.optimizer.zero_grad()

        with autocast():
            predicts = self.model(images)
            aux_predicts = self.vec2box(predicts["AUX"])
            main_predicts = self.vec2box(predicts["Main"])
            loss, loss_item = self.loss_fn(aux_predicts, main_predicts, targets)

        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=10.0)
        self.scaler.step(self.optimizer)
        self.scaler.update()

        return loss_item

    def train_one_epoch(self, dataloader):
        self.model.train()
        total_loss = defaultdict(lambda: torch.tensor(0.0, device=self.device))
        total_samples = 0
        for batch_size, images, targets, *_ in dataloader:
            loss_each = self.train_one_batch(images, targets)

            for loss_name, loss_val in loss_each.items():
                total_loss[loss_name] += loss_val * batch_size
            total_samples += batch_size

        for loss_val in total_loss.values():
            loss_val /= total_samples

        return total_loss


trainer = ModelTrainer(YOLO(), torch.device("cpu"))
loader = [(4, torch.rand(4, 3, 16, 16), torch.rand(4, 10)) for _ in range(3)]
epoch_loss = trainer.train_one_epoch(loader)
print({name: value.grad_fn is not None for name, value in epoch_loss.items()})
