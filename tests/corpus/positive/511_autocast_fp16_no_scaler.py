# source: https://pytorch.org/docs/stable/amp.html#gradient-scaling
# family: E
# pitfall: mixed-precision loop enables torch.autocast(dtype=torch.float16) but calls loss.backward() directly, without a GradScaler
# expect: line 18 — unscaled float16 backward: small gradients underflow to zero in fp16 activations' grads (training stalls or diverges); wrap with GradScaler

import torch
import torch.nn as nn

model = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 100)).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for step in range(500):
    images = torch.randn(128, 3, 32, 32, device="cuda")
    labels = torch.randint(0, 100, (128,), device="cuda")
    optimizer.zero_grad()
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        loss = nn.functional.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()
