# source: https://github.com/bowang-lab/MedSAM/issues/233
# framework: torch
# family: D
# kind: no-grad-in-forward
# negative: the forward wraps only the prompt encoder, which is deliberately not fine-tuned (frozen and left out of the optimizer), in torch.no_grad(); the image encoder and mask decoder that are optimised stay outside it
# mimics: torch.no_grad() inside a model's forward
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class MedSAM(nn.Module):
    def __init__(self, image_encoder, mask_decoder, prompt_encoder):
        super().__init__()
        self.image_encoder = image_encoder
        self.mask_decoder = mask_decoder
        self.prompt_encoder = prompt_encoder
        # freeze prompt encoder
        for param in self.prompt_encoder.parameters():
            param.requires_grad = False

    def forward(self, image, box):
        image_embedding = self.image_encoder(image)
        # do not compute gradients for prompt encoder
        with torch.no_grad():
            box_torch = torch.as_tensor(box, dtype=torch.float32, device=image.device)
            if len(box_torch.shape) == 2:
                box_torch = box_torch[:, None, :]
            sparse_embeddings = self.prompt_encoder(box_torch)
        low_res_masks = self.mask_decoder(image_embedding + sparse_embeddings.mean(dim=1)[:, :, None, None])
        return low_res_masks


medsam_model = MedSAM(image_encoder=nn.Conv2d(3, 8, 3, padding=1), mask_decoder=nn.Conv2d(8, 1, 1), prompt_encoder=nn.Linear(4, 8))
img_mask_encdec_params = list(medsam_model.image_encoder.parameters()) + list(medsam_model.mask_decoder.parameters())
optimizer = torch.optim.AdamW(img_mask_encdec_params, lr=1e-4, weight_decay=0.01)
image = torch.randn(2, 3, 16, 16)
boxes = torch.rand(2, 4)
gt2D = (torch.rand(2, 1, 16, 16) > 0.5).float()
medsam_pred = medsam_model(image, boxes)
loss = nn.functional.binary_cross_entropy_with_logits(medsam_pred, gt2D)
optimizer.zero_grad()
loss.backward()
optimizer.step()
