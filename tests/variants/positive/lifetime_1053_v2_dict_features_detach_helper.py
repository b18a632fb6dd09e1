# source: variant of 1053_dsn_memory_loss_on_detached_features.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: the model returns a dict; the auxiliary alignment loss is computed by a helper from out["emb"].detach(), so the term added to the total loss has no gradient and never trains the embedding
# expect: line 37 — the alignment term is built only from the detached embedding; it adds a constant to the loss
# checked: ran, reproduces (the auxiliary term has no grad_fn)

import torch
import torch.nn as nn
import torch.nn.functional as F


def alignment_loss(emb, prototypes):
    sim = F.normalize(emb, dim=1) @ F.normalize(prototypes, dim=1).t()
    return 1.0 - sim.max(dim=1).values.mean()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Linear(32, 16)
        self.cls = nn.Linear(16, 4)

    def forward(self, x):
        e = torch.tanh(self.emb(x))
        return {"emb": e, "logits": self.cls(e)}


model = Model()
prototypes = torch.randn(4, 16)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x, y = torch.randn(8, 32), torch.randint(0, 4, (8,))

out = model(x)
loss_cls = F.cross_entropy(out["logits"], y)
loss_align = alignment_loss(out["emb"].detach(), prototypes)
loss = loss_cls + 0.5 * loss_align
optimizer.zero_grad()
loss.backward()
optimizer.step()
