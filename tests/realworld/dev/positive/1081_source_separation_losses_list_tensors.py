# source: https://github.com/source-separation/tutorial/issues/28
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the gradient-descent demo stores each iteration's loss tensor in losses[j] (one list per learning rate), keeping every step's graph and making np.log10(losses[j]) fail on tensors that require grad
# expect: line 31 — losses[j].append(loss) stores the graph-carrying loss of every iteration; store loss.item()
# checked: ran, reproduces (np.log10 on the stored losses raises "Can't call numpy() on Tensor that requires grad")

import numpy as np
import torch

LEARNING_RATES = [1e-3, 1e-2]
N_ITERATIONS = 5
grad_norms = []
losses = []

for j, lr in enumerate(LEARNING_RATES):
    grad_norms.append([])
    losses.append([])
    model = torch.nn.Linear(16, 16)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for i in range(N_ITERATIONS):
        mix = torch.randn(8, 16)
        source = torch.randn(8, 16)
        estimate = model(mix)
        loss = torch.nn.functional.l1_loss(estimate, source)
        optimizer.zero_grad()
        loss.backward()
        grad_norm = sum(p.grad.norm() ** 2 for p in model.parameters()) ** 0.5
        grad_norms[j].append(grad_norm.item())
        losses[j].append(loss)
        optimizer.step()

for j, lr in enumerate(LEARNING_RATES):
    print(np.log10(losses[j]))
