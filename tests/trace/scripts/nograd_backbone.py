import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        with torch.no_grad():  # expect: GL104
            feats = self.backbone(x)
        return self.head(feats)


torch.manual_seed(0)
model = Model()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
