# source: https://github.com/shenweichen/DeepCTR-Torch/issues/87
# framework: torch
# family: D
# kind: params-not-in-optimizer
# negative: the maintainers' fix (released in v0.2.4): the tensor is moved to the device before it is wrapped, nn.Parameter(torch.Tensor(...).to(device)), so self.weight stays a registered leaf parameter
# mimics: positive/1217_deepctr_linear_dense_weight_parameter_to_device.py
# expect: no finding
# checked: ran, no error; weight is listed in named_parameters()

from collections import namedtuple

import torch
import torch.nn as nn

SparseFeat = namedtuple('SparseFeat', ['name', 'vocabulary_size', 'embedding_name'])
DenseFeat = namedtuple('DenseFeat', ['name', 'dimension'])


def create_embedding_matrix(feature_columns, init_std=0.0001, linear=False, sparse=False, device='cpu'):
    sparse_feature_columns = list(filter(lambda x: isinstance(x, SparseFeat), feature_columns))
    embedding_dict = nn.ModuleDict(
        {feat.embedding_name: nn.Embedding(feat.vocabulary_size, 1 if linear else 4, sparse=sparse)
         for feat in sparse_feature_columns})
    return embedding_dict.to(device)


class Linear(nn.Module):
    def __init__(self, feature_columns, feature_index, init_std=0.0001, device='cpu'):
        super(Linear, self).__init__()
        self.feature_index = feature_index
        self.device = device
        self.sparse_feature_columns = list(
            filter(lambda x: isinstance(x, SparseFeat), feature_columns)) if len(feature_columns) else []
        self.dense_feature_columns = list(
            filter(lambda x: isinstance(x, DenseFeat), feature_columns)) if len(feature_columns) else []

        self.embedding_dict = create_embedding_matrix(feature_columns, init_std, linear=True, sparse=False,
                                                      device=device)

        for tensor in self.embedding_dict.values():
            nn.init.normal_(tensor.weight, mean=0, std=init_std)

        if len(self.dense_feature_columns) > 0:
            self.weight = nn.Parameter(torch.Tensor(sum(fc.dimension for fc in self.dense_feature_columns), 1).to(
                device))
            torch.nn.init.normal_(self.weight, mean=0, std=init_std)

    def forward(self, X):

        sparse_embedding_list = [self.embedding_dict[feat.embedding_name](
            X[:, self.feature_index[feat.name][0]:self.feature_index[feat.name][1]].long()) for
            feat in self.sparse_feature_columns]

        dense_value_list = [X[:, self.feature_index[feat.name][0]:self.feature_index[feat.name][1]] for feat in
                            self.dense_feature_columns]

        if len(sparse_embedding_list) > 0 and len(dense_value_list) > 0:
            linear_sparse_logit = torch.sum(
                torch.cat(sparse_embedding_list, dim=-1), dim=-1, keepdim=False)
            linear_dense_logit = torch.cat(
                dense_value_list, dim=-1).matmul(self.weight)
            linear_logit = linear_sparse_logit + linear_dense_logit
        elif len(sparse_embedding_list) > 0:
            linear_logit = torch.sum(
                torch.cat(sparse_embedding_list, dim=-1), dim=-1, keepdim=False)
        elif len(dense_value_list) > 0:
            linear_logit = torch.cat(
                dense_value_list, dim=-1).matmul(self.weight)
        else:
            linear_logit = torch.zeros([X.shape[0], 1])
        return linear_logit


device = 'cuda:0' if torch.cuda.is_available() else 'cpu'
columns = [SparseFeat('user', 10, 'user'), DenseFeat('age', 1), DenseFeat('price', 1)]
index = {'user': (0, 1), 'age': (1, 2), 'price': (2, 3)}
linear_model = Linear(columns, index, device=device)
optimizer = torch.optim.Adam(linear_model.parameters())
X = torch.cat([torch.randint(0, 10, (4, 1)).float(), torch.rand(4, 2)], dim=1).to(device)
loss = linear_model(X).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
print([name for name, _ in linear_model.named_parameters()])
