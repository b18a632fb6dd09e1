# source: https://github.com/marrrcin/pytorch-resnet-mnist/issues/2
# framework: torch
# family: D
# kind: missing-zero-grad
# negative: the loop clears gradients with model.zero_grad() instead of optimizer.zero_grad(); the optimizer holds exactly model.parameters(), so both clear the same gradients
# mimics: a training loop without optimizer.zero_grad()
# expect: no finding
# checked: parse only (needs torchvision)

import torch
from torch import nn
from torchvision.models.resnet import ResNet, BasicBlock


class MnistResNet(ResNet):
    def __init__(self):
        super(MnistResNet, self).__init__(BasicBlock, [2, 2, 2, 2], num_classes=10)
        self.conv1 = torch.nn.Conv2d(1, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False)

    def forward(self, x):
        return torch.softmax(super(MnistResNet, self).forward(x), dim=-1)


model = MnistResNet()
loss_function = nn.CrossEntropyLoss()
optimizer = torch.optim.Adadelta(model.parameters())
train_loader = [(torch.randn(2, 1, 32, 32), torch.randint(0, 10, (2,))) for _ in range(2)]

for epoch in range(1):
    total_loss = 0
    model.train()
    for i, data in enumerate(train_loader):
        X, y = data[0], data[1]
        model.zero_grad()
        outputs = model(X)
        loss = loss_function(outputs, y)
        loss.backward()
        optimizer.step()
        current_loss = loss.item()
        total_loss += current_loss
