# source: variant of 1223_tennis_court_trainer_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: none — a Trainer with callback-style hooks: on_train_batch_start() clears the gradients, training_step() does backward, optimizer_step() steps
# checked: ran, correct (grads not accumulated)
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr=0.0):
        self.model = model
        self.optimizer = self.configure_optimizers(lr)

    def configure_optimizers(self, lr):
        return torch.optim.SGD(self.model.parameters(), lr=lr)

    def on_train_batch_start(self, batch_idx):
        self.model.zero_grad(set_to_none=True)

    def training_step(self, batch):
        x, y = batch
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        return loss

    def optimizer_step(self):
        self.optimizer.step()

    def fit(self, loader):
        for batch_idx, batch in enumerate(loader):
            self.on_train_batch_start(batch_idx)
            self.training_step(batch)
            self.optimizer_step()


if __name__ == "__main__":
    model = nn.Linear(8, 2)
    t = Trainer(model)
    seen = []
    model.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(4, 8), torch.randn(4, 2))
    t.fit([b, b])
    print("equal:", torch.allclose(seen[0], seen[1]))
