# source: https://github.com/microsoft/nni/issues/4521
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: the optimizer is built before pruning; speedup_model() replaces the pruned layers with smaller new ones, and fine-tuning keeps stepping the old optimizer, whose parameters are no longer in the model
# expect: line 47 — speedup_model() swaps in new layers (new parameters) while the existing optimizer still holds the replaced ones; fine-tuning never updates the model
# checked: parse only (needs nni)

import torch
import torch.nn as nn
from nni.compression.pytorch import ModelSpeedup
from nni.algorithms.compression.pytorch.pruning import L1FilterPruner


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = torch.relu(self.conv2(torch.relu(self.conv1(x))))
        return self.fc(x.mean(dim=(2, 3)))


def trainer(model, optimizer, criterion, epoch, train_loader):
    model.train()
    for data, target in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(data), target)
        loss.backward()
        optimizer.step()


model = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
config_list = [{'sparsity': 0.5, 'op_types': ['Conv2d']}]
pruner = L1FilterPruner(model, config_list)
pruner.compress()
pruner.export_model(model_path='pruned.pth', mask_path='mask.pth')
pruner._unwrap_model()

dummy_input = torch.randn(1, 3, 32, 32)
m_speedup = ModelSpeedup(model, dummy_input, 'mask.pth')
m_speedup.speedup_model()

print('start finetuning...')
train_loader = [(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,)))]
for epoch in range(3):
    trainer(model, optimizer, criterion, epoch, train_loader)
