# source: variant of 1054_deep_cage_detached_mvc_weights_reg.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: a skinning module computes blend weights, stores self.weights = w.clone().detach() and returns them for the sparsity regulariser; the returned weights have no history, so the regulariser never trains the weight predictor
# expect: line 20 — w.clone().detach() cuts the weights that the sparsity loss is computed from
# checked: ran, reproduces (backward of the regulariser raises "element 0 of tensors does not require grad"; the weight predictor gets no gradient)

import torch
import torch.nn as nn


class Skinning(nn.Module):
    def __init__(self, n_joints=4):
        super().__init__()
        self.predict = nn.Linear(3, n_joints)

    def blend_weights(self, points):
        w = torch.softmax(self.predict(points), dim=-1)
        self.weights = w.clone().detach()
        return self.weights

    def forward(self, points, joints):
        w = self.blend_weights(points)
        return w @ joints, w


model = Skinning()
optimizer = torch.optim.Adam(model.parameters())
posed, w = model(torch.rand(20, 3), torch.rand(4, 3))
sparsity = (w.abs().sum(-1) - 1.0).pow(2).mean() + w.pow(0.5).mean()
optimizer.zero_grad()
sparsity.backward()
optimizer.step()
print(model.predict.weight.grad)
