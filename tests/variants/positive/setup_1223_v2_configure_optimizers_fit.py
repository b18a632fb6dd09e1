# source: variant of 1223_tennis_court_trainer_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: optimizer made in configure_optimizers(), the step split into training_step(batch) (backward + step) called from fit(); nothing clears the gradients between batches
# expect: line 35 — loss.backward() in training_step adds to the previous batches' gradients (no zero_grad anywhere)
# checked: ran, reproduces (post-accumulate hook: gradient seen by the 2nd step == 2x the single-batch gradient)
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, x):
        return self.net(x)


class Runner:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.lr = lr
        self.optimizer = self.configure_optimizers()

    def configure_optimizers(self):
        return torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9)

    def training_step(self, batch):
        x, y = batch
        logits = self.model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, loader, epochs=1):
        for epoch in range(epochs):
            for batch in loader:
                self.training_step(batch)


if __name__ == "__main__":
    model = Classifier()
    r = Runner(model, lr=0.0)
    b = (torch.randn(4, 8), torch.randint(0, 3, (4,)))
    seen = []
    model.net[2].weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    r.fit([b, b])
    print("accumulated:", torch.allclose(seen[1], 2 * seen[0]))
