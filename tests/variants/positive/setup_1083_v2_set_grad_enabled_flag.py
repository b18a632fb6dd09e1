# source: variant of 1083_convirt_text_head_under_no_grad.py
# framework: torch
# family: D
# kind: no-grad-in-forward
# pitfall: forward wraps the "frozen" encoder in torch.set_grad_enabled(not self.freeze_encoder) but also the trainable adapter, so with freeze_encoder=True the adapter never trains
# expect: line 22 — torch.set_grad_enabled(False) block in forward covers the trainable adapter
# checked: ran, reproduces (the trainable layer inside the no-grad region has .grad None after backward)
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, freeze_encoder=True):
        super().__init__()
        self.freeze_encoder = freeze_encoder
        self.encoder = nn.Linear(16, 16)
        self.adapter = nn.Linear(16, 16)
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        with torch.set_grad_enabled(not self.freeze_encoder):
            h = F.relu(self.encoder(x))
            h = F.relu(self.adapter(h))
        return self.head(h)


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.SGD(
            [p for n, p in model.named_parameters() if not n.startswith("encoder")], lr=0.1)

    def train_epoch(self, loader):
        for x, y in loader:
            self.optimizer.zero_grad()
            F.cross_entropy(self.model(x), y).backward()
            self.optimizer.step()


if __name__ == "__main__":
    m = Classifier()
    Trainer(m).train_epoch([(torch.randn(4, 16), torch.randint(0, 3, (4,)))])
    print("adapter grad:", m.adapter.weight.grad, "head grad set:", m.head.weight.grad is not None)
