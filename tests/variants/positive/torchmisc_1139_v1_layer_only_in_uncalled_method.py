# source: variant of 1139_ddp_mylayer_unused_linear.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# pitfall: a retrieval encoder registers a projection head that only an embedding helper (never called in training) uses; forward() does not reach it, so under DistributedDataParallel (find_unused_parameters=False) its parameters never get a gradient and the second iteration fails
# expect: line 21 — self.proj_head is registered but not used by forward() (only by embed(), which training never calls)
# checked: ran, reproduces (gloo, world_size=1, CPU: "Expected to have finished reduction in the prior iteration" on the second step)
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
    model = nn.parallel.DistributedDataParallel(TextEncoder())
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
