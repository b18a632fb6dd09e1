# source: https://github.com/Modalities/modalities/pull/464
# framework: torch
# family: E
# kind: other-low-precision-loss
# pitfall: under FSDP2 mixed precision the model emits bfloat16 logits and the causal-LM loss feeds them straight into CrossEntropyLoss; without torch.autocast nothing upcasts them, so the log-softmax, the tensors its backward reads and the returned loss are all bfloat16 (at a loss of ~36 the representable grid is 0.25 wide)
# expect: line 45 — cross-entropy on bfloat16 logits: the loss and its gradient are computed and stored in bfloat16 (the PR upcasts with .float() before the loss, as TorchTitan does)
# checked: ran, reproduces (CPU: the bfloat16 loss differs from the float32 loss of the same logits by about one bfloat16 quantum); CLMCrossEntropyLoss from modalities' loss_functions.py before the PR, the batch container and driver are reconstructed
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
        loss = self.loss_fun(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
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
