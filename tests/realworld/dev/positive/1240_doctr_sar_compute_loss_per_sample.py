# source: https://github.com/mindee/doctr/pull/379
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: SAR.compute_loss returns the per-word cross-entropy as ce_loss.unsqueeze(1), a (batch, 1) tensor, and the training script backpropagates out['loss'] directly, which fails with "grad can be implicitly created only for scalar outputs" (MASTER had the same return)
# expect: line 67 — compute_loss returns one loss per sample; the merged fix returns ce_loss.mean()
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs); doctr/models/recognition/sar/pytorch.py compute_loss at fe602cb^ verbatim inside a reduced SAR (a conv feature extractor and a linear decoder instead of the LSTM/attention decoder), with the reference training step

from typing import Any, Dict, List, Optional

import torch
from torch import nn
from torch.nn import functional as F


class SAR(nn.Module):
    def __init__(self, vocab: str, max_length: int = 8) -> None:
        super().__init__()
        self.vocab = vocab
        self.max_length = max_length + 1  # Add 1 timestep for EOS after the longest word
        self.feat_extractor = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, self.max_length)))
        self.decoder = nn.Linear(16, len(vocab) + 1)

    def compute_target(self, gts: List[str]):
        encoded = torch.full((len(gts), self.max_length), len(self.vocab), dtype=torch.long)
        for i, word in enumerate(gts):
            encoded[i, :len(word)] = torch.tensor([self.vocab.index(c) for c in word])
        return encoded, torch.tensor([len(w) for w in gts])

    def forward(self, x: torch.Tensor, target: Optional[List[str]] = None) -> Dict[str, Any]:
        features = self.feat_extractor(x).squeeze(2).permute(0, 2, 1)  # N x L x C
        decoded_features = self.decoder(features)
        out: Dict[str, Any] = {}
        if target is not None:
            gt, seq_len = self.compute_target(target)
            out['loss'] = self.compute_loss(decoded_features, gt, seq_len)  # type: ignore[arg-type]
        return out

    def compute_loss(
        self,
        model_output: torch.Tensor,
        gt: torch.Tensor,
        seq_len: torch.Tensor,
    ) -> torch.Tensor:
        """Compute categorical cross-entropy loss for the model.
        Sequences are masked after the EOS character.

        Args:
            gt: the encoded tensor with gt labels
            model_output: predicted logits of the model
            seq_len: lengths of each gt word inside the batch

        Returns:
            The loss of the model on the batch
        """
        # Input length : number of timesteps
        input_len = model_output.shape[1]
        # Add one for additional <eos> token
        seq_len = seq_len + 1
        # Compute loss
        cce = F.cross_entropy(model_output.permute(0, 2, 1), gt, reduction='none')
        # Compute mask
        mask_2d = torch.arange(input_len, device=model_output.device)[None, :] < seq_len[:, None]
        cce[mask_2d] = 0

        ce_loss = cce.sum(1) / seq_len.to(dtype=torch.float32)
        return ce_loss.unsqueeze(1)


model = SAR(vocab="abcdefgh")
optimizer = torch.optim.Adam(model.parameters(), 1e-3)
images, targets = torch.rand(2, 3, 32, 64), ["bad", "cafe"]
train_loss = model(images, targets)['loss']
optimizer.zero_grad()
train_loss.backward()
optimizer.step()
