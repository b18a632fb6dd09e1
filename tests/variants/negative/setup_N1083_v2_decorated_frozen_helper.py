# source: variant of 1083_convirt_text_head_under_no_grad.py
# framework: torch
# family: D
# kind: no-grad-in-forward
# pitfall: none — @torch.no_grad() helper runs only the frozen text backbone; text_proj is applied in forward outside it
# checked: ran, correct (text_proj gets a gradient)
import torch
import torch.nn as nn
import torch.nn.functional as F


class CLIPLike(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.text_backbone = nn.Embedding(100, 16).requires_grad_(False)
        self.text_proj = nn.Linear(16, dim)
        self.image_backbone = nn.Linear(32, 16)
        self.image_proj = nn.Linear(16, dim)

    @torch.no_grad()
    def text_features(self, ids):
        return self.text_backbone(ids).mean(1)

    def forward(self, images, ids):
        zi = self.image_proj(F.relu(self.image_backbone(images)))
        zt = self.text_proj(self.text_features(ids))
        return zi, zt


if __name__ == "__main__":
    model = CLIPLike()
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], 3e-4)
    zi, zt = model(torch.randn(4, 32), torch.randint(0, 100, (4, 6)))
    loss = F.cross_entropy(F.normalize(zi, dim=1) @ F.normalize(zt, dim=1).t() / 0.1, torch.arange(4))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("text_proj grad set:", model.text_proj.weight.grad is not None)
