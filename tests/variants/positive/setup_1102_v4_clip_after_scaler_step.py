# source: variant of 1102_graphstorm_clip_after_step.py
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: AMP trainer clips after self.scaler.step(self.optimizer): the update already used the unclipped gradients
# expect: line 27 — clip_grad_norm_ after scaler.step(optimizer)
# checked: ran, reproduces (with SGD lr=1 the update is far larger than the clip bound: clipping had no effect on the step)
import torch
import torch.nn as nn


class AMPTrainer:
    def __init__(self, model, optimizer, max_norm=1.0):
        self.model = model
        self.optimizer = optimizer
        self.scaler = torch.amp.GradScaler("cpu")
        self.max_norm = max_norm

    def train_epoch(self, loader):
        for x, y in loader:
            self.optimizer.zero_grad()
            with torch.autocast("cpu", dtype=torch.bfloat16):
                loss = nn.functional.cross_entropy(self.model(x).float(), y)
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(16, 4)
    before = model.weight.detach().clone()
    AMPTrainer(model, torch.optim.SGD(model.parameters(), lr=1.0), max_norm=1e-3).train_epoch(
        [(torch.randn(32, 16) * 50, torch.randint(0, 4, (32,)))])
    print("update norm:", (model.weight - before).norm().item(), "(<=1e-3 if clipped first)")
