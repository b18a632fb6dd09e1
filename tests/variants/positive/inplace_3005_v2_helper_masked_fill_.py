# source: variant of 3005_leaf_index_copy.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: the requires-grad leaf is built by a helper and then masked_fill_'d by the caller
# expect: line 17 — emb.masked_fill_(pad_mask, 0.0) on a requires-grad leaf
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch


def make_table(n, d):
    return torch.randn(n, d).requires_grad_(True)


emb = make_table(6, 3)
pad_mask = torch.tensor([True, False, False, False, False, True])[:, None]
emb.masked_fill_(pad_mask, 0.0)
emb.sum().backward()
