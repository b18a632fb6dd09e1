# source: negative twin of a variant of 1093_nllloss_mean_float16_overflow.py
# framework: torch
# family: E
# kind: large-sum-low-precision
# negative: the logits are cast with .float(), so the mean is accumulated in float32
# mimics: positive/1093_v1_trainer_criterion_half_logits.py
# expect: no finding
# checked: ran, finite loss
import torch
import torch.nn as nn


class SegTrainer:
    def __init__(self, num_classes=11):
        self.num_classes = num_classes
        self.criterion = nn.CrossEntropyLoss()

    def loss(self, batch):
        logits = batch["logits"].float()
        target = batch["mask"]
        return self.criterion(logits, target)


trainer = SegTrainer()
batch = {"logits": torch.rand(32, 11, 256, 256), "mask": torch.randint(0, 11, (32, 256, 256))}
print(trainer.loss(batch))
