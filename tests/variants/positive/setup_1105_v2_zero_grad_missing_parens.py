# source: variant of 1105_text_classification_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: `optimizer.zero_grad` is written without the call parentheses: the statement does nothing, so gradients accumulate across batches
# expect: line 19 — loss.backward() accumulates: `optimizer.zero_grad` (no parentheses) never clears anything
# checked: ran, reproduces (post-accumulate hook: gradient seen by the 2nd step == 2x the single-batch gradient)
import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, optimizer, loader, epochs=1):
    model.train()
    for epoch in range(epochs):
        for text, label in loader:
            optimizer.zero_grad
            loss = F.cross_entropy(model(text), label)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    model = nn.Linear(12, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    seen = []
    model.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(4, 12), torch.randint(0, 2, (4,)))
    train(model, optimizer, [b, b])
    print("accumulated:", torch.allclose(seen[1], 2 * seen[0]))
