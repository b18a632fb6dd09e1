# source: https://github.com/huggingface/trl/pull/7252
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: entropy -(exp(logps) * logps) is 0 * -inf = NaN for masked (-inf) logits; sanitising the product afterwards with .nan_to_num(...) fixes only the forward value - the 0 * -inf product stays in the graph and back-propagates NaN into every logit of the row (Bugbot review on the PR).
# expect: line 21 — (torch.exp(logps) * logps).nan_to_num(...) masking NaN after the fact
# checked: ran (torch 2.13 CPU), reproduces: the whole row with the -inf logit gets nan gradients
import torch
import torch.nn.functional as F


def entropy_from_logits(logits: torch.Tensor, chunk_size: int = 128) -> torch.Tensor:
    # trl/trainer/utils.py as changed in the PR
    original_shape = logits.shape[:-1]
    num_classes = logits.shape[-1]
    flat_logits = logits.reshape(-1, num_classes)
    entropies = []
    for chunk in flat_logits.split(chunk_size, dim=0):
        logps = F.log_softmax(chunk, dim=-1)
        # Zero-probability tokens have logps = -inf; 0 * -inf is undefined, but they contribute 0 to entropy.
        chunk_entropy = -(torch.exp(logps) * logps).nan_to_num(nan=0.0, posinf=0.0, neginf=0.0).sum(-1)
        entropies.append(chunk_entropy)
    return torch.cat(entropies, dim=0).reshape(original_shape)


logits = torch.tensor([[[0.0, 1.0, float("-inf")], [2.0, 0.5, -1.0]]], requires_grad=True)  # masked vocab entry
entropy = entropy_from_logits(logits)
entropy.sum().backward()
print(entropy, logits.grad)
