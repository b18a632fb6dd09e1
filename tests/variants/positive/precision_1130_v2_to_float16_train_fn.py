# source: variant of 1130_edsr_precision_half_training.py
# framework: torch
# family: E
# kind: fp16-master-weights
# pitfall: the model is converted with model.to(dtype=torch.float16) in main() when --fp16 is given and then trained by a separate train() function with Adam on the float16 weights
# expect: line 37 — model.to(dtype=torch.float16) for training, Adam updates the float16 weights
# checked: ran, reproduces (loss nan after the first Adam step)
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def build_model():
    return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))


def train(model, optimizer, batches, dtype):
    model.train()
    for x, y in batches:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x.to(dtype)), y.to(dtype))
        loss.backward()
        optimizer.step()
        print(loss.item())


def main(argv=None):
    args = argparse.ArgumentParser()
    args.add_argument("--fp16", action="store_true")
    args = args.parse_args(argv)
    model = build_model()
    dtype = torch.float32
    if args.fp16:
        dtype = torch.float16
        model = model.to(dtype=torch.float16)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    batches = [(torch.randn(16, 32), torch.randn(16, 1)) for _ in range(4)]
    train(model, optimizer, batches, dtype)


if __name__ == "__main__":
    main(["--fp16"])
