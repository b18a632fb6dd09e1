# source: variant of 1214_unet_clip_scaled_grads_without_unscale.py
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: Trainer keeps self.scaler (torch.amp.GradScaler) and clips self.model.parameters() after the scaled backward without self.scaler.unscale_(self.optimizer)
# expect: line 31 — clip_grad_norm_ on gradients still multiplied by the loss scale
# checked: ran on CPU with torch.amp.GradScaler("cpu"), reproduces (clip sees norm ~1e4 = scale x true norm 0.16)
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, device, amp=True, clip=1.0):
        self.model = model
        self.optimizer = optimizer
        self.device = device
        self.scaler = torch.amp.GradScaler(device.type, enabled=amp)
        self.clip = clip
        self.amp = amp

    def train_epoch(self, loader):
        self.model.train()
        for images, masks in loader:
            images, masks = images.to(self.device), masks.to(self.device)
            with torch.autocast(self.device.type, enabled=self.amp):
                pred = self.model(images)
                loss = F.binary_cross_entropy_with_logits(pred.squeeze(1), masks.float())
            self.optimizer.zero_grad(set_to_none=True)
            self.scaler.scale(loss).backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
            self.scaler.step(self.optimizer)
            self.scaler.update()


if __name__ == "__main__":
    device = torch.device("cpu")
    model = nn.Conv2d(3, 1, 3, padding=1)
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    t = Trainer(model, opt, device, amp=True, clip=1e6)
    seen = []
    orig = nn.utils.clip_grad_norm_
    nn.utils.clip_grad_norm_ = lambda params, m: seen.append(orig(params, m).item())
    t.train_epoch([(torch.rand(2, 3, 8, 8), torch.randint(0, 2, (2, 8, 8)))])
    g = torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()
    print("norm seen by clip:", seen, "true grad norm after step:", g, "scale:", t.scaler.get_scale())
