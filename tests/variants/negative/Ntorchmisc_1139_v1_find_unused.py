# source: negative twin of a variant of 1139_ddp_mylayer_unused_linear.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# negative: DDP(..., find_unused_parameters=True), the fix the DDP error names
# mimics: positive/1139_v1_layer_only_in_uncalled_method.py
# expect: no finding
# checked: ran, 3 steps complete
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class TextEncoder(nn.Module):
    def __init__(self, vocab=50, dim=32, n_classes=4):
        super().__init__()
        self.embed_tokens = nn.EmbeddingBag(vocab, dim)
        self.classifier = nn.Linear(dim, n_classes)
        self.proj_head = nn.Linear(dim, 16)

    def encode(self, tokens):
        return torch.tanh(self.embed_tokens(tokens))

    def embed(self, tokens):
        return F.normalize(self.proj_head(self.encode(tokens)), dim=-1)

    def forward(self, tokens):
        return self.classifier(self.encode(tokens))


def main():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29561")
    dist.init_process_group("gloo", rank=0, world_size=1)
    model = nn.parallel.DistributedDataParallel(TextEncoder(), find_unused_parameters=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        tokens = torch.randint(0, 50, (8, 6))
        labels = torch.randint(0, 4, (8,))
        loss = F.cross_entropy(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
