# source: variant of 1102_graphstorm_clip_after_step.py
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: the clipping lives in a helper method (_clip_gradients) that the loop calls after self.optimizer.step()
# expect: line 19 — clip_grad_norm_ inside the helper, which the loop calls (line 28) only after the step
# checked: ran, reproduces (with SGD lr=1 the parameter update is far larger than max_norm: clipping had no effect on the step)
import torch as th


class NodePredictionTrainer:
    def __init__(self, model, optimizer, max_grad_norm=None):
        self.model = model
        self.optimizer = optimizer
        self.max_grad_norm = max_grad_norm

    def _clip_gradients(self):
        if self.max_grad_norm is not None:
            th.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)

    def fit(self, train_loader):
        for input_nodes, labels in train_loader:
            logits = self.model(input_nodes)
            loss = th.nn.functional.cross_entropy(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self._clip_gradients()


if __name__ == "__main__":
    model = th.nn.Linear(16, 4)
    before = model.weight.detach().clone()
    trainer = NodePredictionTrainer(model, th.optim.SGD(model.parameters(), lr=1.0), max_grad_norm=0.001)
    trainer.fit([(th.randn(32, 16) * 50, th.randint(0, 4, (32,)))])
    print("update norm:", (model.weight - before).norm().item(), "(<=0.001 if clipped first)")
