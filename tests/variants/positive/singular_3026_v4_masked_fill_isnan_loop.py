# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: entropy product sanitised with .masked_fill(plogp.isnan(), 0.0) inside a chunked loop; NaN still reaches the logits' gradient
# expect: line 17 — (p * logp).masked_fill(... .isnan(), 0.0)
# checked: ran (torch 2.13 CPU), reproduces (logits.grad rows with a -inf logit = nan)

import torch


def entropy_from_logits(logits, chunk_size=2):
    out = []
    for chunk in logits.split(chunk_size, dim=0):
        logp = torch.log_softmax(chunk, dim=-1)
        plogp = logp.exp() * logp
        out.append(-plogp.masked_fill(plogp.isnan(), 0.0).sum(-1))
    return torch.cat(out)


logits = torch.tensor([[0.0, 1.0, float("-inf")], [2.0, 0.5, -1.0], [1.0, float("-inf"), 0.0]], requires_grad=True)
entropy_from_logits(logits).sum().backward()
print(logits.grad)
