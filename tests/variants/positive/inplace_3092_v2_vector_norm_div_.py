# source: variant of 3092_embeddingnet_l2_output_idiv.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: in-place normalisation with div_ and torch.linalg.vector_norm of the same tensor
# expect: line 13 — emb.div_(torch.linalg.vector_norm(emb, ...)) on the tensor vector_norm saved
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [8, 4]], which is output 0 of Div, is at version 1; expected version 0 )
import torch
import torch.nn as nn


def l2_normalize_(emb):
    return emb.div_(torch.linalg.vector_norm(emb, dim=-1, keepdim=True))


encoder = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 4))
z1 = l2_normalize_(encoder(torch.randn(8, 16)))
z2 = l2_normalize_(encoder(torch.randn(8, 16)))
loss = -(z1 * z2).sum(-1).mean()
loss.backward()
