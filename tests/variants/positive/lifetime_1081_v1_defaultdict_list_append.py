# source: variant of 1081_source_separation_losses_list_tensors.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: a learning-rate sweep stores each iteration's loss tensor in results[lr] (a defaultdict(list)), keeping every step's graph and breaking np.log10 on the stored values
# expect: line 26 — results[lr].append(loss) stores the graph-carrying loss of every iteration; store loss.item()
# checked: ran, reproduces (np.log10 on the stored losses raises "Can't call numpy() on Tensor that requires grad")

from collections import defaultdict

import numpy as np
import torch


def run_sweep(lrs, n_iter=5):
    results = defaultdict(list)
    for lr in lrs:
        model = torch.nn.Linear(16, 16)
        optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        for i in range(n_iter):
            mix, source = torch.randn(8, 16), torch.randn(8, 16)
            loss = torch.nn.functional.l1_loss(model(mix), source)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            results[lr].append(loss)
    return results


if __name__ == "__main__":
    res = run_sweep([1e-3, 1e-2])
    try:
        print(np.log10(res[1e-3]))
    except RuntimeError as e:
        print("RuntimeError:", e)
