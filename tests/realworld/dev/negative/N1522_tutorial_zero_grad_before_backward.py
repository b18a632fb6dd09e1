# source: https://github.com/patrickloeber/pytorchTutorial/issues/19
# framework: torch
# family: D
# kind: misplaced-zero-grad
# negative: from tutorial 13 on, optimizer.zero_grad() sits between the loss computation and loss.backward(); the gradients are cleared before the new ones are computed, so step() uses exactly this batch's gradients
# mimics: zero_grad placed right before backward rather than at the top of the loop
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn

input_size, hidden_size, num_classes = 784, 100, 10
model = nn.Sequential(nn.Linear(input_size, hidden_size), nn.ReLU(), nn.Linear(hidden_size, num_classes))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
train_loader = [(torch.randn(4, 1, 28, 28), torch.randint(0, 10, (4,))) for _ in range(3)]

for epoch in range(2):
    for i, (images, labels) in enumerate(train_loader):
        images = images.reshape(-1, 28 * 28)

        # Forward pass
        outputs = model(images)
        loss = criterion(outputs, labels)

        # Backward and optimize
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
