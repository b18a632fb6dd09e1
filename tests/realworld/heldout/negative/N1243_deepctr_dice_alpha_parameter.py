# source: https://github.com/shenweichen/DeepCTR-Torch/issues/93
# framework: torch
# family: D
# kind: params-not-in-optimizer
# negative: the maintainers' fix (released in v0.2.4): alpha is wrapped in nn.Parameter, so it is registered, handed to the optimizer and trained
# mimics: positive/1243_deepctr_dice_alpha_plain_tensor.py
# expect: no finding
# checked: ran, no error; alpha is listed and changes

# -*- coding:utf-8 -*-
import torch
import torch.nn as nn


class Dice(nn.Module):
    """The Data Adaptive Activation Function in DIN,which can be viewed as a generalization of PReLu and can adaptively adjust the rectified point according to distribution of input data.

    Input shape:
        - 2 dims: [batch_size, embedding_size(features)]
        - 3 dims: [batch_size, num_features, embedding_size(features)]

    Output shape:
        - Same shape as input.

    References
        - [Zhou G, Zhu X, Song C, et al. Deep interest network for click-through rate prediction[C]//Proceedings of the 24th ACM SIGKDD International Conference on Knowledge Discovery & Data Mining. ACM, 2018: 1059-1068.](https://arxiv.org/pdf/1706.06978.pdf)
        - https://github.com/zhougr1993/DeepInterestNetwork, https://github.com/fanoping/DIN-pytorch
    """
    def __init__(self, emb_size, dim=2, epsilon=1e-8, device='cpu'):
        super(Dice, self).__init__()
        assert dim == 2 or dim == 3

        self.bn = nn.BatchNorm1d(emb_size, eps=epsilon)
        self.sigmoid = nn.Sigmoid()
        self.dim = dim

        if self.dim == 2:
            self.alpha = nn.Parameter(torch.zeros((emb_size,)).to(device))
        else:
            self.alpha = nn.Parameter(torch.zeros((emb_size, 1)).to(device))

    def forward(self, x):
        assert x.dim() == self.dim
        if self.dim == 2:
            x_p = self.sigmoid(self.bn(x))
            out = self.alpha * (1 - x_p) * x + x_p * x
        else:
            x = torch.transpose(x, 1, 2)
            x_p = self.sigmoid(self.bn(x))
            out = self.alpha * (1 - x_p) * x + x_p * x
            out = torch.transpose(out, 1, 2)

        return out


model = nn.Sequential(nn.Linear(8, 16), Dice(16), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
print([name for name, _ in model.named_parameters()])
for _ in range(3):
    x, y = torch.randn(32, 8), torch.rand(32, 1)
    loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print('alpha:', model[1].alpha[:4])
