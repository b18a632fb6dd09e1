# source: https://github.com/layumi/Person_reID_baseline_pytorch/issues/90
# framework: torch
# family: D
# kind: params-not-in-optimizer
# negative: the optimizer also lists model.model.fc, a layer the forward pass no longer uses; those parameters simply get no gradient and SGD skips them, so training is unaffected (the maintainer agrees it is only redundant)
# mimics: optimizer parameter groups that do not match the layers used in forward
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.optim as optim


class ResNetLike(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 1000)


class ft_net(nn.Module):
    def __init__(self, class_num):
        super(ft_net, self).__init__()
        self.model = ResNetLike()
        self.classifier = nn.Linear(8, class_num)

    def forward(self, x):
        x = self.model.avgpool(torch.relu(self.model.conv1(x)))
        x = x.view(x.size(0), x.size(1))
        return self.classifier(x)


model = ft_net(751)
ignored_params = list(map(id, model.model.fc.parameters())) + list(map(id, model.classifier.parameters()))
base_params = filter(lambda p: id(p) not in ignored_params, model.parameters())
optimizer_ft = optim.SGD([
    {'params': base_params, 'lr': 0.01},
    {'params': model.model.fc.parameters(), 'lr': 0.1},
    {'params': model.classifier.parameters(), 'lr': 0.1}
], weight_decay=5e-4, momentum=0.9, nesterov=True)

outputs = model(torch.randn(2, 3, 16, 16))
loss = nn.CrossEntropyLoss()(outputs, torch.tensor([0, 1]))
optimizer_ft.zero_grad()
loss.backward()
optimizer_ft.step()
