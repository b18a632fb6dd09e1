# source: variant of 1083_convirt_text_head_under_no_grad.py
# framework: torch
# family: D
# kind: no-grad-in-forward
# pitfall: none — only the frozen backbone (requires_grad False, not in the optimizer) runs under no_grad; the neck is applied after the block
# checked: ran, correct (neck and fc get gradients)
import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearProbe(nn.Module):
    def __init__(self, backbone, feat_dim, n_classes):
        super().__init__()
        self.backbone = backbone
        self.neck = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU())
        self.fc = nn.Linear(feat_dim, n_classes)

    def forward(self, x):
        with torch.no_grad():
            feats = self.backbone(x)
        feats = self.neck(feats)
        return self.fc(feats)


def configure_optimizers(model, lr=0.1):
    return torch.optim.SGD(list(model.neck.parameters()) + list(model.fc.parameters()), lr=lr)


if __name__ == "__main__":
    backbone = nn.Linear(8, 8).requires_grad_(False)
    model = LinearProbe(backbone, 8, 2)
    opt = configure_optimizers(model)
    opt.zero_grad()
    F.cross_entropy(model(torch.randn(4, 8)), torch.tensor([0, 1, 0, 1])).backward()
    opt.step()
    print("neck grad set:", model.neck[0].weight.grad is not None)
