# source: https://github.com/Modalities/modalities/pull/464
# framework: torch
# family: E
# kind: other-low-precision-loss
# negative: the merged fix (PR #464): upcast the logits to float32 before the cross-entropy
# mimics: positive/1172_modalities_clm_loss_on_bf16_logits.py
# expect: no finding
# checked: ran, no error
from abc import ABC, abstractmethod
from types import SimpleNamespace

import torch
from torch.nn import CrossEntropyLoss


class Loss(ABC):
    def __init__(self, tag: str):
        self._tag = tag

    @property
    def tag(self) -> str:
        return self._tag

    @abstractmethod
    def __call__(self, forward_batch) -> torch.Tensor:
        raise NotImplementedError


class CLMCrossEntropyLoss(Loss):
    def __init__(self, target_key: str, prediction_key: str, tag: str = "CLMCrossEntropyLoss"):
        super().__init__(tag)
        self.target_key = target_key
        self.prediction_key = prediction_key
        # Mean over the tokens in the local-batch (batch per rank)
        self.loss_fun = CrossEntropyLoss(reduction="mean")

    def __call__(self, forward_batch) -> torch.Tensor:
        labels = forward_batch.get_targets(self.target_key)
        lm_logits = forward_batch.get_predictions(self.prediction_key)

        # move labels to correct device to enable model parallelism
        labels = labels.to(lm_logits.device)
        shift_logits = lm_logits.contiguous()
        shift_labels = labels.contiguous().long()
        # Flatten the tokens
        loss = self.loss_fun(shift_logits.view(-1, shift_logits.size(-1)).float(), shift_labels.view(-1))
        return loss


class InferenceResultBatch(SimpleNamespace):
    def get_targets(self, key):
        return self.targets[key]

    def get_predictions(self, key):
        return self.predictions[key]


torch.manual_seed(0)
lm_head = torch.nn.Linear(64, 1000, bias=False).to(torch.bfloat16)   # FSDP2 MixedPrecisionPolicy(param_dtype=bfloat16)
hidden = (torch.randn(2, 128, 64) * 8).to(torch.bfloat16)
labels = torch.randint(0, 1000, (2, 128))
batch = InferenceResultBatch(targets={"target_ids": labels}, predictions={"logits": lm_head(hidden)})
loss_fn = CLMCrossEntropyLoss(target_key="target_ids", prediction_key="logits")
loss = loss_fn(batch)
loss.backward()
