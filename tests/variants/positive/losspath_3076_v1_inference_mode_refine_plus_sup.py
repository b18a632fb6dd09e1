# source: variant of 3076_loss_input_recomputed_under_no_grad.py
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: a distillation step runs the frozen decoder on the student's latent prediction under torch.inference_mode() and rebinds the prediction; the reconstruction term computed from it has no graph, so only the latent term trains the student
# expect: line 25 — pred_img = self.decoder(pred_latent) inside inference_mode replaces the student's output that the reconstruction term uses
# checked: ran, reproduces (no error; losses["rec"].requires_grad is False while losses["latent"] is True, so backward runs silently without the reconstruction term)

import torch
import torch.nn as nn
import torch.nn.functional as F


class LatentDistiller:
    def __init__(self, dim=8):
        self.student = nn.Linear(dim, dim)
        self.decoder = nn.Linear(dim, 16).requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.student.parameters(), lr=1e-3)

    def losses(self, x, z_teacher, img):
        out = {}
        pred_latent = self.student(x)
        out["latent"] = F.mse_loss(pred_latent, z_teacher)
        with torch.inference_mode():
            pred_img = self.decoder(pred_latent)
        out["rec"] = F.l1_loss(pred_img, img)
        return out

    def step(self, x, z_teacher, img):
        out = self.losses(x, z_teacher, img)
        total = out["latent"] + out["rec"]
        self.optimizer.zero_grad()
        total.backward()
        self.optimizer.step()
        return out


res = LatentDistiller().step(torch.randn(4, 8), torch.randn(4, 8), torch.randn(4, 16))
print(res["rec"].requires_grad, res["latent"].requires_grad)
