# source: https://github.com/haotian-liu/LLaVA/issues/305
# framework: torch
# family: D
# kind: no-grad-in-forward
# pitfall: the vision tower's forward is decorated with @torch.no_grad(), so an input-optimisation loop that differentiates the model output with respect to the image gets no gradient through the encoder
# expect: line 27 — @torch.no_grad() on forward cuts every gradient through the vision encoder, including the one to the input image (the maintainer agrees it is over-cautious)
# checked: ran, reproduces (image.grad stays None; the optimiser never moves the image)

import torch
import torch.nn as nn


class CLIPVisionTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision_tower = nn.Sequential(nn.Conv2d(3, 8, 4, 4), nn.Flatten(), nn.Linear(8 * 4 * 4, 32))
        self.vision_tower.requires_grad_(False)

    @property
    def dtype(self):
        return torch.float32

    @property
    def device(self):
        return torch.device("cpu")

    @torch.no_grad()
    def forward(self, images):
        image_features = self.vision_tower(images.to(device=self.device, dtype=self.dtype))
        return image_features.to(images.dtype)


tower = CLIPVisionTower()
projector = nn.Linear(32, 16)
image = torch.rand(1, 3, 16, 16, requires_grad=True)
image_optimizer = torch.optim.Adam([image], lr=1e-2)
target = torch.randn(1, 16)
for step in range(3):
    loss = nn.functional.mse_loss(projector(tower(image)), target)
    image_optimizer.zero_grad()
    loss.backward()
    image_optimizer.step()
