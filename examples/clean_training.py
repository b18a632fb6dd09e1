"""The same kind of training loop, written correctly: gradlint reports nothing here."""

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
criterion = nn.CrossEntropyLoss()
history = []

for epoch in range(3):
    total = 0.0
    for step in range(100):
        x, y = torch.randn(32, 20), torch.randint(0, 5, (32,))
        optimizer.zero_grad()
        logits = model(x)
        loss = criterion(logits, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        total += loss.item()
        history.append(logits.detach().softmax(-1).max(-1).values.mean().item())
    print(f"epoch {epoch}: loss {total / 100:.3f}")

with torch.no_grad():
    preds = model(torch.randn(4, 20)).argmax(-1).tolist()
