# source: https://github.com/adambielski/siamese-triplet/issues/51
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: L2-normalising the embedding in place: `output.pow(2)` saves `output` for backward, and `output /= ...` then divides that same tensor in place.
# expect: line 44 — `output /= output.pow(2).sum(1, keepdim=True).sqrt()` modifies the tensor that pow(2) saved
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [8, 2]], which is output 0 of Div, is at version 1; expected version 0 instead -- torch 1.x in the issue reported it as output 0 of AddmmBackward; networks.py verbatim, triplet driver added)
import torch
import torch.nn as nn
import torch.nn.functional as F


class EmbeddingNet(nn.Module):
    def __init__(self):
        super(EmbeddingNet, self).__init__()
        self.convnet = nn.Sequential(nn.Conv2d(1, 32, 5), nn.PReLU(),
                                     nn.MaxPool2d(2, stride=2),
                                     nn.Conv2d(32, 64, 5), nn.PReLU(),
                                     nn.MaxPool2d(2, stride=2))

        self.fc = nn.Sequential(nn.Linear(64 * 4 * 4, 256),
                                nn.PReLU(),
                                nn.Linear(256, 256),
                                nn.PReLU(),
                                nn.Linear(256, 2)
                                )

    def forward(self, x):
        output = self.convnet(x)
        output = output.view(output.size()[0], -1)
        output = self.fc(output)
        return output

    def get_embedding(self, x):
        return self.forward(x)


class EmbeddingNetL2(EmbeddingNet):
    def __init__(self):
        super(EmbeddingNetL2, self).__init__()

    def forward(self, x):
        output = super(EmbeddingNetL2, self).forward(x)
        output /= output.pow(2).sum(1, keepdim=True).sqrt()
        return output

    def get_embedding(self, x):
        return self.forward(x)


class TripletNet(nn.Module):
    def __init__(self, embedding_net):
        super(TripletNet, self).__init__()
        self.embedding_net = embedding_net

    def forward(self, x1, x2, x3):
        output1 = self.embedding_net(x1)
        output2 = self.embedding_net(x2)
        output3 = self.embedding_net(x3)
        return output1, output2, output3


# driver: the README's triplet setup with EmbeddingNetL2 swapped in (MNIST-sized inputs)
torch.manual_seed(0)
model = TripletNet(EmbeddingNetL2())
x1, x2, x3 = (torch.randn(8, 1, 28, 28) for _ in range(3))
a, p, n = model(x1, x2, x3)
loss = F.relu((a - p).pow(2).sum(1) - (a - n).pow(2).sum(1) + 0.2).mean()
loss.backward()
print(loss.item())
