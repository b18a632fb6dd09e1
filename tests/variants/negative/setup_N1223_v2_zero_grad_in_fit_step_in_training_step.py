# source: variant of 1223_tennis_court_trainer_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: none — fit() clears gradients each iteration; backward and step happen in training_step()
# checked: ran, correct (grads not accumulated)
import torch
import torch.nn as nn
import torch.nn.functional as F


class Runner:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.lr = lr
        self.optimizer = self.configure_optimizers()

    def configure_optimizers(self):
        return torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9)

    def training_step(self, batch):
        x, y = batch
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, loader, epochs=1):
        for epoch in range(epochs):
            for batch in loader:
                self.optimizer.zero_grad()
                self.training_step(batch)


if __name__ == "__main__":
    model = nn.Linear(8, 3)
    r = Runner(model, lr=0.0)
    seen = []
    model.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(4, 8), torch.randint(0, 3, (4,)))
    r.fit([b, b])
    print("equal (not accumulated):", torch.allclose(seen[1], seen[0]))
