# source: https://github.com/kmaninis/OSVOS-PyTorch/issues/22
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: the training loop marks the input batch with requires_grad_() and then moves it with .to(device); the author confirms the call is unnecessary but harmless: nobody reads inputs.grad and the network's parameters are trained normally
# mimics: requires_grad on a tensor that is then moved to a device (a non-leaf copy)
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn

device = torch.device("cpu")
net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
optimizer = torch.optim.SGD(net.parameters(), lr=1e-8, momentum=0.9, weight_decay=5e-4)
trainloader = [{'image': torch.randn(1, 3, 16, 16), 'gt': (torch.rand(1, 1, 16, 16) > 0.5).float()} for _ in range(2)]


def class_balanced_cross_entropy_loss(output, label, size_average=True, batch_average=True):
    return nn.functional.binary_cross_entropy_with_logits(output, label)


for epoch in range(2):
    for ii, sample_batched in enumerate(trainloader):

        inputs, gts = sample_batched['image'], sample_batched['gt']

        # Forward-Backward of the mini-batch
        inputs.requires_grad_()
        inputs, gts = inputs.to(device), gts.to(device)

        outputs = net.forward(inputs)

        # Compute the fuse loss
        loss = class_balanced_cross_entropy_loss(outputs, gts, size_average=False)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
