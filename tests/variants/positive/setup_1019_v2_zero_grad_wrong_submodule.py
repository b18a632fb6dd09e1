# source: variant of 1019_idinvert_missing_optimizer_d_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: the Trainer clears only self.model.encoder's gradients (self.model.encoder.zero_grad()) but the optimizer steps the whole model, so the head's gradients accumulate across batches
# expect: line 31 — loss.backward() adds to the head's gradients from every previous batch (only the encoder is cleared)
# checked: ran, reproduces (post-accumulate hook: gradient seen by the 2nd step == 2x the single-batch gradient)
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(torch.relu(self.encoder(x)))


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def train_epoch(self, loader):
        for x, y in loader:
            self.model.encoder.zero_grad()
            loss = nn.functional.cross_entropy(self.model(x), y)
            loss.backward()
            self.optimizer.step()


if __name__ == "__main__":
    model = Net()
    t = Trainer(model, lr=0.0)
    seen = []
    model.head.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(4, 8), torch.tensor([0, 1, 0, 1]))
    t.train_epoch([b, b])
    print("head grads accumulate:", torch.allclose(seen[1], 2 * seen[0]))
