# source: variant of 3092_embeddingnet_l2_output_idiv.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: L2 normalisation in place with torch.norm on the output of the model's forward, in a training step method
# expect: line 20 — feats /= torch.norm(feats, ...) on the tensor torch.norm saved
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [8, 4]], which is output 0 of Div, is at version 1; expected version 0 )
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self):
        self.model = nn.Linear(16, 4)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def embed(self, x):
        feats = self.model(x)
        feats /= torch.norm(feats, dim=1, keepdim=True)
        return feats

    def step(self, x, y):
        self.opt.zero_grad()
        loss = F.mse_loss(self.embed(x), y)
        loss.backward()
        self.opt.step()


Trainer().step(torch.randn(8, 16), torch.randn(8, 4))
