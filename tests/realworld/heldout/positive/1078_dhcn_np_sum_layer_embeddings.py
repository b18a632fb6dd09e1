# source: https://github.com/xiaxin1998/DHCN/issues/8
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: the hypergraph convolution sums its per-layer item embeddings with np.sum over a list of tensors, which converts them to NumPy inside forward (an error on recent versions; the suggested .detach().numpy() "fix" silently stops training the embeddings)
# expect: line 36 — np.sum over the layer outputs leaves autograd inside forward; use torch.stack(final).sum(0)
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
from torch import nn


def trans_to_cuda(variable):
    if torch.cuda.is_available():
        return variable.cuda()
    return variable


class HyperConv(nn.Module):
    def __init__(self, layers, dataset, emb_size=100):
        super(HyperConv, self).__init__()
        self.emb_size = emb_size
        self.layers = layers
        self.dataset = dataset

    def forward(self, adjacency, embedding):
        item_embeddings = embedding
        item_embedding_layer0 = item_embeddings
        final = [item_embedding_layer0]
        for i in range(self.layers):
            item_embeddings = torch.sparse.mm(trans_to_cuda(adjacency), item_embeddings)
            final.append(item_embeddings)
        # final1 = trans_to_cuda(torch.tensor([item.cpu().detach().numpy() for item in final]))
        # item_embeddings = torch.sum(final1, 0)
        item_embeddings = np.sum(final, 0)
        return item_embeddings


embedding = nn.Embedding(10, 8)
adjacency = torch.eye(10).to_sparse()
conv = HyperConv(layers=2, dataset='Tmall', emb_size=8)
out = conv(adjacency, embedding.weight)
out.sum().backward()
