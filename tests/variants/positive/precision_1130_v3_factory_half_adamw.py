# source: variant of 1130_edsr_precision_half_training.py
# framework: torch
# family: E
# kind: fp16-master-weights
# pitfall: a factory returns model.half() when half precision is requested and the training loop steps AdamW on those float16 weights
# expect: line 15 — .half() on the model that AdamW then trains
# checked: ran, reproduces (loss nan after the first AdamW step)
import torch
import torch.nn as nn


def create_model(precision="half"):
    model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 1))
    if precision == "half":
        model = model.half()
    return model


model = create_model()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
for step in range(4):
    x = torch.randn(16, 32, dtype=torch.float16)
    y = torch.randn(16, 1, dtype=torch.float16)
    out = model(x)
    loss = (out - y).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
