# source: negative for 1010_bilstm_crf_sum_log_likelihood.py (loss summed across a loop, then backward)
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: none: the loss is summed over the time steps of one sequence and backpropagated once; the total is reset for every sequence
# checked: ran

import torch
import torch.nn as nn

cell = nn.GRUCell(3, 8)
head = nn.Linear(8, 3)
optimizer = torch.optim.SGD(list(cell.parameters()) + list(head.parameters()), lr=0.01)

for seq in [torch.randn(5, 1, 3) for _ in range(3)]:
    h = torch.zeros(1, 8)
    total_loss = 0
    for t in range(seq.size(0) - 1):
        h = cell(seq[t], h)
        total_loss += nn.functional.mse_loss(head(h), seq[t + 1])
    optimizer.zero_grad()
    total_loss.backward()
    optimizer.step()
    print(total_loss.item())
