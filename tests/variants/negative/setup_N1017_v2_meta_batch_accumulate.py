# source: variant of 1017_wekws_executor_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: none — intended accumulation over a meta-batch of tasks: zero_grad before the task loop, one step after it
# checked: ran, correct (each step uses only the current meta-batch's gradients)
import torch
import torch.nn as nn


def meta_train(model, optimizer, meta_batches):
    for tasks in meta_batches:
        optimizer.zero_grad()
        for x, y in tasks:
            loss = nn.functional.mse_loss(model(x), y) / len(tasks)
            loss.backward()
        optimizer.step()


if __name__ == "__main__":
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    seen = []
    optimizer.register_step_pre_hook(lambda o, a, k: seen.append(model.weight.grad.clone()))
    t = (torch.randn(3, 4), torch.randn(3, 1))
    meta_train(model, optimizer, [[t, t], [t, t]])
    print("equal:", torch.allclose(seen[0], seen[1]))
