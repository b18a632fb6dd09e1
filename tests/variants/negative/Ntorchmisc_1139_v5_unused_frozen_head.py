# source: negative twin of a variant of 1139_ddp_mylayer_unused_linear.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# negative: the head that forward() does not use is frozen (requires_grad_(False)) before DDP is built, so DDP does not register its parameters and waits for nothing
# mimics: positive/1139_v1_layer_only_in_uncalled_method.py
# expect: no finding
# checked: ran, 3 steps complete (gloo, world_size=1, CPU)
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
        self.proj_head.requires_grad_(False)

    def encode(self, tokens):
        return torch.tanh(self.embed_tokens(tokens))

    def forward(self, tokens):
        return self.classifier(self.encode(tokens))


def main():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29566")
    dist.init_process_group("gloo", rank=0, world_size=1)
    model = nn.parallel.DistributedDataParallel(TextEncoder())
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-3)
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
