# source: https://pytorch.org/docs/stable/generated/torch.inference_mode.html
# family: F
# negative: in a training script, torch.inference_mode() wraps only the validation pass; its outputs become Python floats and never meet autograd
# mimics: torch.inference_mode() in a file that trains the same model
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train = [(torch.randn(64, 32), torch.randint(0, 10, (64,))) for _ in range(20)]
val = [(torch.randn(64, 32), torch.randint(0, 10, (64,))) for _ in range(5)]

for epoch in range(3):
    model.train()
    for x, y in train:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.inference_mode():
        val_loss = sum(F.cross_entropy(model(x), y).item() for x, y in val) / len(val)
        val_acc = sum((model(x).argmax(1) == y).float().mean().item() for x, y in val) / len(val)
    print(epoch, round(val_loss, 4), round(val_acc, 4))
