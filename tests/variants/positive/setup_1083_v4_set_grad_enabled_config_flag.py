# source: variant of 1083_convirt_text_head_under_no_grad.py
# framework: torch
# family: D
# kind: no-grad-in-forward
# pitfall: the text branch runs under torch.set_grad_enabled(self.train_text_encoder) with the flag False by default; the block also covers the trainable projection head, which the optimizer holds but never updates
# expect: line 22 — torch.set_grad_enabled(self.train_text_encoder) (False) also covers text_proj
# checked: ran, reproduces (text_proj.weight.grad is None after backward)
import torch
import torch.nn as nn
import torch.nn.functional as F


class DualEncoder(nn.Module):
    def __init__(self, dim=8, train_text_encoder=False):
        super().__init__()
        self.train_text_encoder = train_text_encoder
        self.image_enc = nn.Linear(32, dim)
        self.text_enc = nn.Embedding(100, 16)
        self.text_proj = nn.Linear(16, dim)

    def encode_text(self, ids):
        with torch.set_grad_enabled(self.train_text_encoder):
            h = self.text_enc(ids).mean(1)
            z = self.text_proj(h)
        return z

    def forward(self, images, ids):
        return self.image_enc(images), self.encode_text(ids)


if __name__ == "__main__":
    model = DualEncoder()
    optimizer = torch.optim.Adam(model.parameters(), 3e-4)
    zi, zt = model(torch.randn(4, 32), torch.randint(0, 100, (4, 6)))
    loss = F.cross_entropy(F.normalize(zi, dim=1) @ F.normalize(zt, dim=1).t() / 0.1, torch.arange(4))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("text_proj grad:", model.text_proj.weight.grad)
