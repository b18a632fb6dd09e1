# source: synthetic
# family: D
# pitfall: token saliency for a text classifier reads emb.grad, where emb is the output of the embedding layer (a non-leaf)
# expect: line 20 — emb is not a leaf and retain_grad() was never called: emb.grad is None and .abs() raises AttributeError

import torch
import torch.nn as nn

vocab, dim = 2000, 64
embedding = nn.Embedding(vocab, dim)
encoder = nn.GRU(dim, 64, batch_first=True)
clf = nn.Linear(64, 2)


def token_saliency(tokens, label):
    emb = embedding(tokens)
    _, h = encoder(emb)
    loss = nn.functional.cross_entropy(clf(h[-1]), label)
    loss.backward()
    return emb.grad.abs().sum(dim=-1)


print(token_saliency(torch.randint(0, vocab, (1, 12)), torch.tensor([1])))
