# source: variant of 1083_convirt_text_head_under_no_grad.py
# framework: torch
# family: D
# kind: no-grad-in-forward
# pitfall: the text branch helper is decorated with @torch.no_grad() and includes the trainable projection head, so the head never receives a gradient although the optimizer holds it
# expect: line 21 — @torch.no_grad() on encode_text, which also runs the trainable text_proj
# checked: ran, reproduces (the trainable layer inside the no-grad region has .grad None after backward)
import torch
import torch.nn as nn
import torch.nn.functional as F


class CLIPLike(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.text_backbone = nn.Embedding(100, 16)
        self.text_proj = nn.Linear(16, dim)
        self.image_backbone = nn.Linear(32, 16)
        self.image_proj = nn.Linear(16, dim)

    @torch.no_grad()
    def encode_text(self, ids):
        h = self.text_backbone(ids).mean(1)
        return self.text_proj(h)

    def encode_image(self, x):
        return self.image_proj(F.relu(self.image_backbone(x)))

    def forward(self, images, ids):
        return self.encode_image(images), self.encode_text(ids)


def train_step(model, optimizer, images, ids):
    zi, zt = model(images, ids)
    logits = F.normalize(zi, dim=1) @ F.normalize(zt, dim=1).t()
    loss = F.cross_entropy(logits / 0.1, torch.arange(images.size(0)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    model = CLIPLike()
    optimizer = torch.optim.Adam(model.parameters(), 3e-4)
    train_step(model, optimizer, torch.randn(4, 32), torch.randint(0, 100, (4, 6)))
    print("text_proj grad:", model.text_proj.weight.grad)
