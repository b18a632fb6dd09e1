# source: variant of 1093_nllloss_mean_float16_overflow.py
# framework: torch
# family: E
# kind: large-sum-low-precision
# pitfall: the trainer keeps nn.CrossEntropyLoss on self and feeds it float16 segmentation logits of 32x256x256 pixels; the mean reduction accumulates ~2M float16 terms and the loss is nan
# expect: line 20 — the criterion averages ~2M float16 per-pixel losses
# checked: ran, reproduces on CPU (the loss is nan, dtype float16; with logits.float() it is finite)
import torch
import torch.nn as nn


class SegTrainer:
    def __init__(self, num_classes=11):
        self.num_classes = num_classes
        self.criterion = nn.CrossEntropyLoss()

    def loss(self, batch):
        logits = batch["logits"].half()
        target = batch["mask"]
        return self.criterion(logits, target)


trainer = SegTrainer()
batch = {"logits": torch.rand(32, 11, 256, 256), "mask": torch.randint(0, 11, (32, 256, 256))}
print(trainer.loss(batch))
