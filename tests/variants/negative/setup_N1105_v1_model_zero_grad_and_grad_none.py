# source: variant of 1105_text_classification_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: none — gradients cleared by hand: `for p in model.parameters(): p.grad = None` at the top of each iteration
# checked: ran, correct (grads not accumulated)
import torch
import torch.nn as nn
import torch.nn.functional as F


def run(model, optimizer, train_iter, epochs):
    for epoch in range(epochs):
        for text, label in train_iter:
            for p in model.parameters():
                p.grad = None
            loss = F.cross_entropy(model(text), label)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(12, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    seen = []
    model[0].weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(4, 12), torch.randint(0, 2, (4,)))
    run(model, optimizer, [b, b], 1)
    print("equal:", torch.allclose(seen[1], seen[0]))
