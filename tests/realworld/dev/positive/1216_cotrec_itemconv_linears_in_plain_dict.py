# source: https://github.com/xiaxin1998/COTREC/issues/15
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: ItemConv keeps its per-layer nn.Linear weights in a plain dict (self.w_item = {}), so they are not submodules: COTREC's self.parameters(), which builds the Adam optimizer, never contains them and they stay at their random initialisation (the same holds for SessConv's self.w_sess)
# expect: line 29 — a plain dict of nn.Linear modules is not registered; the maintainer switched to ModuleList/ModuleDict (commit ccf215b) and reports slightly better results
# checked: parse only (runs only on CUDA: np.sum over the list of tensors falls back to an object array there, on CPU it raises); model.py at 5a48847 reduced to ItemConv and the parts of COTREC that build the optimizer and call it

import math
import numpy as np
import torch
from torch import nn
from torch.nn import Module
import torch.nn.functional as F


def trans_to_cuda(variable):
    if torch.cuda.is_available():
        return variable.cuda()
    else:
        return variable


class ItemConv(Module):
    def __init__(self, layers, emb_size=100):
        super(ItemConv, self).__init__()
        self.emb_size = emb_size
        self.layers = layers
        self.w_item = {}
        for i in range(self.layers):
            self.w_item['weight_item%d' % (i)] = nn.Linear(self.emb_size, self.emb_size, bias=False)

    def forward(self, adjacency, embedding):
        values = adjacency.data
        indices = np.vstack((adjacency.row, adjacency.col))
        i = torch.LongTensor(indices)
        v = torch.FloatTensor(values)
        shape = adjacency.shape
        adjacency = torch.sparse.FloatTensor(i, v, torch.Size(shape))
        item_embeddings = embedding
        item_embedding_layer0 = item_embeddings
        final = [item_embedding_layer0]
        for i in range(self.layers):
            item_embeddings = trans_to_cuda(self.w_item['weight_item%d' % (i)])(item_embeddings)
            item_embeddings = torch.sparse.mm(trans_to_cuda(adjacency), item_embeddings)
            final.append(F.normalize(item_embeddings, dim=-1, p=2))
        item_embeddings = np.sum(final, 0)/(self.layers+1)
        return item_embeddings


class COTREC(Module):
    def __init__(self, adjacency, n_node, lr, layers, emb_size=100, batch_size=100):
        super(COTREC, self).__init__()
        self.emb_size = emb_size
        self.batch_size = batch_size
        self.n_node = n_node
        self.lr = lr
        self.layers = layers
        self.adjacency = adjacency
        self.embedding = nn.Embedding(self.n_node, self.emb_size)
        self.ItemGraph = ItemConv(self.layers)
        self.loss_function = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(self.parameters(), lr=self.lr)
        self.init_parameters()

    def init_parameters(self):
        stdv = 1.0 / math.sqrt(self.emb_size)
        for weight in self.parameters():
            weight.data.uniform_(-stdv, stdv)

    def forward(self, sess_emb, tar):
        item_embeddings_i = self.ItemGraph(self.adjacency, self.embedding.weight)
        scores = torch.mm(sess_emb, torch.transpose(item_embeddings_i, 1, 0))
        return self.loss_function(scores, tar)


def train_test(model, sess_emb, tar):
    model.optimizer.zero_grad()
    loss = model(sess_emb, tar)
    loss.backward()
    model.optimizer.step()
    return loss.item()
