# source: https://github.com/milesial/Pytorch-UNet/issues/378
# framework: torch
# family: D
# kind: misplaced-zero-grad
# negative: optimizer.zero_grad(set_to_none=True) is called after the forward pass and loss computation but before backward; gradients are still cleared before they are produced (the maintainer: the order relative to the forward does not matter)
# mimics: zero_grad placed after the forward pass instead of at the top of the loop
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn

model = nn.Conv2d(3, 2, 3, padding=1)
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-5, weight_decay=1e-8, momentum=0.9)
grad_scaler = torch.amp.GradScaler("cpu", enabled=False)
criterion = nn.CrossEntropyLoss()
train_loader = [{'image': torch.randn(2, 3, 16, 16), 'mask': torch.randint(0, 2, (2, 16, 16))} for _ in range(2)]

for epoch in range(1, 3):
    model.train()
    for batch in train_loader:
        images = batch['image']
        true_masks = batch['mask']
        with torch.autocast("cpu", enabled=False):
            masks_pred = model(images)
            loss = criterion(masks_pred, true_masks)

        optimizer.zero_grad(set_to_none=True)
        grad_scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        grad_scaler.step(optimizer)
        grad_scaler.update()
