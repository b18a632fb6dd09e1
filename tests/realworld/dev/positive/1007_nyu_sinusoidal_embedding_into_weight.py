# source: https://github.com/Atcold/NYU-DLSP20/issues/765
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: fixed sinusoidal position encodings are written by slice assignment into nn.Embedding.weight (a leaf parameter) with grad mode on
# expect: line 21 — slice assignment into a view of a leaf parameter that requires grad raises RuntimeError
# checked: ran, reproduces

import numpy as np
import torch
import torch.nn as nn

device = torch.device("cpu")


def create_sinusoidal_embeddings(nb_p, dim, E):
    theta = np.array([
        [p / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)]
        for p in range(nb_p)
    ])
    E[:, 0::2] = torch.FloatTensor(np.sin(theta[:, 0::2]))
    E[:, 1::2] = torch.FloatTensor(np.cos(theta[:, 1::2]))
    E.requires_grad = False
    E = E.to(device)


class Embeddings(nn.Module):
    def __init__(self, d_model, vocab_size, max_position_embeddings, p):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, d_model, padding_idx=1)
        self.position_embeddings = nn.Embedding(max_position_embeddings, d_model)
        create_sinusoidal_embeddings(
            nb_p=max_position_embeddings,
            dim=d_model,
            E=self.position_embeddings.weight
        )
        self.LayerNorm = nn.LayerNorm(d_model, eps=1e-12)


model = Embeddings(d_model=32, vocab_size=50002, max_position_embeddings=10000, p=0.1)
