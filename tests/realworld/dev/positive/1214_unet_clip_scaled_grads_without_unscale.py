# source: https://github.com/milesial/Pytorch-UNet/pull/470
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: with AMP enabled, train_model clips model.parameters() right after grad_scaler.scale(loss).backward(); the gradients are still multiplied by the loss scale (65536 at the start), so clip_grad_norm_(..., 1.0) shrinks every step by that factor before grad_scaler.step() unscales them again
# expect: line 84 — clip_grad_norm_ on scaled gradients; the merged fix calls grad_scaler.unscale_(optimizer) right before it
# checked: parse only (the pitfall needs CUDA: torch.cuda.amp.GradScaler disables itself on CPU); train.py's train_model before 52b4f14, reduced (no wandb/tqdm/evaluation/checkpoints, a two-conv stand-in for UNet, random batches instead of the Carvana loader)

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor
from torch import optim


def dice_coeff(input: Tensor, target: Tensor, reduce_batch_first: bool = False, epsilon: float = 1e-6):
    # Average of Dice coefficient for all batches, or for a single mask
    assert input.size() == target.size()
    assert input.dim() == 3 or not reduce_batch_first

    sum_dim = (-1, -2) if input.dim() == 2 or not reduce_batch_first else (-1, -2, -3)

    inter = 2 * (input * target).sum(dim=sum_dim)
    sets_sum = input.sum(dim=sum_dim) + target.sum(dim=sum_dim)
    sets_sum = torch.where(sets_sum == 0, inter, sets_sum)

    dice = (inter + epsilon) / (sets_sum + epsilon)
    return dice.mean()


def dice_loss(input: Tensor, target: Tensor, multiclass: bool = False):
    # Dice loss (objective to minimize) between 0 and 1
    return 1 - dice_coeff(input, target, reduce_batch_first=True)


class UNet(nn.Module):
    def __init__(self, n_channels, n_classes):
        super().__init__()
        self.n_channels = n_channels
        self.n_classes = n_classes
        self.inc = nn.Sequential(nn.Conv2d(n_channels, 8, 3, padding=1), nn.ReLU(inplace=True))
        self.outc = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        return self.outc(self.inc(x))


def train_model(
        model,
        device,
        train_loader,
        epochs: int = 5,
        learning_rate: float = 1e-5,
        amp: bool = False,
        weight_decay: float = 1e-8,
        momentum: float = 0.999,
        gradient_clipping: float = 1.0,
):
    # 4. Set up the optimizer, the loss, the learning rate scheduler and the loss scaling for AMP
    optimizer = optim.RMSprop(model.parameters(),
                              lr=learning_rate, weight_decay=weight_decay, momentum=momentum, foreach=True)
    scheduler = optim.lr_scheduler.ReduceLROnPlateau(optimizer, 'max', patience=5)  # goal: maximize Dice score
    grad_scaler = torch.cuda.amp.GradScaler(enabled=amp)
    criterion = nn.CrossEntropyLoss() if model.n_classes > 1 else nn.BCEWithLogitsLoss()
    global_step = 0

    # 5. Begin training
    for epoch in range(1, epochs + 1):
        model.train()
        epoch_loss = 0
        for batch in train_loader:
            images, true_masks = batch['image'], batch['mask']

            images = images.to(device=device, dtype=torch.float32, memory_format=torch.channels_last)
            true_masks = true_masks.to(device=device, dtype=torch.long)

            with torch.autocast(device.type if device.type != 'mps' else 'cpu', enabled=amp):
                masks_pred = model(images)
                loss = criterion(masks_pred.squeeze(1), true_masks.float())
                loss += dice_loss(F.sigmoid(masks_pred.squeeze(1)), true_masks.float(), multiclass=False)

            optimizer.zero_grad(set_to_none=True)
            grad_scaler.scale(loss).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), gradient_clipping)
            grad_scaler.step(optimizer)
            grad_scaler.update()

            global_step += 1
            epoch_loss += loss.item()


if __name__ == '__main__':
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    model = UNet(n_channels=3, n_classes=1)
    model = model.to(memory_format=torch.channels_last)
    model.to(device=device)
    loader = [{'image': torch.rand(2, 3, 16, 16), 'mask': torch.randint(0, 2, (2, 16, 16))} for _ in range(2)]
    train_model(model=model, device=device, train_loader=loader, epochs=1, amp=True)
