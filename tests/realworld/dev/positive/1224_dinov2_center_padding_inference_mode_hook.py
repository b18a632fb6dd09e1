# source: https://github.com/facebookresearch/dinov2/issues/472
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# pitfall: the depther registers CenterPadding as a forward pre-hook on the backbone, and CenterPadding.forward is decorated with @torch.inference_mode(); every backbone input is therefore replaced by an inference tensor, which the patch-embedding convolution cannot save for backward, so fine-tuning the depther (or even calling model.backbone with grad enabled) fails
# expect: line 29 — @torch.inference_mode() on a forward that runs inside the training graph (as a pre-hook of the backbone); the reporter's fix is to remove the decorator
# checked: ran, reproduces (RuntimeError: Inference tensors cannot be saved for backward); dinov2/hub/utils.py CenterPadding verbatim, the hook registration from dinov2/hub/depthers.py, a one-conv backbone and linear depth head instead of ViT + DPT

import itertools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CenterPadding(nn.Module):
    def __init__(self, multiple):
        super().__init__()
        self.multiple = multiple

    def _get_pad(self, size):
        new_size = math.ceil(size / self.multiple) * self.multiple
        pad_size = new_size - size
        pad_size_left = pad_size // 2
        pad_size_right = pad_size - pad_size_left
        return pad_size_left, pad_size_right

    @torch.inference_mode()
    def forward(self, x):
        pads = list(itertools.chain.from_iterable(self._get_pad(m) for m in x.shape[:1:-1]))
        output = F.pad(x, pads)
        return output


class DepthEncoderDecoder(nn.Module):
    def __init__(self, backbone, decode_head):
        super().__init__()
        self.backbone = backbone
        self.decode_head = decode_head

    def forward(self, img):
        feats = self.backbone(img)
        depth = self.decode_head(feats)
        return F.interpolate(depth, size=img.shape[2:], mode="bilinear", align_corners=False)


def _make_dinov2_linear_depther(patch_size=14, embed_dim=32):
    backbone = nn.Conv2d(3, embed_dim, kernel_size=patch_size, stride=patch_size)  # patch embedding
    linear_depth_head = nn.Sequential(nn.Conv2d(embed_dim, 1, 1), nn.ReLU())
    model = DepthEncoderDecoder(backbone=backbone, decode_head=linear_depth_head)
    model.backbone.register_forward_pre_hook(lambda _, x: CenterPadding(patch_size)(x[0]))
    return model


model = _make_dinov2_linear_depther()
optimizer = torch.optim.AdamW(model.decode_head.parameters(), lr=1e-4)
images, depth_gt = torch.rand(2, 3, 60, 60), torch.rand(2, 1, 60, 60)
loss = F.l1_loss(model(images), depth_gt)
optimizer.zero_grad()
loss.backward()
optimizer.step()
