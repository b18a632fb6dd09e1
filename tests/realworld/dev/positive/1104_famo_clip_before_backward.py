# source: https://github.com/Cranial-XIX/FAMO/issues/4
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: in the multi-task update, clip_grad_norm_ is called before loss.backward(), so it clips the (already cleared) old gradients and the new gradients reach the step unclipped
# expect: line 32 — clipping before backward operates on stale/None gradients; it must come after loss.backward()
# checked: ran (the clip runs before backward; the step uses unclipped gradients)

import torch
import torch.nn as nn


class FAMO:
    def __init__(self, n_tasks, device, gamma=0.01, w_lr=0.025, max_norm=1.0):
        self.n_tasks = n_tasks
        self.min_losses = torch.zeros(n_tasks).to(device)
        self.w = torch.tensor([0.0] * n_tasks, device=device, requires_grad=True)
        self.w_opt = torch.optim.Adam([self.w], lr=w_lr, weight_decay=gamma)
        self.max_norm = max_norm

    def get_weighted_loss(self, losses):
        self.prev_loss = losses
        z = torch.softmax(self.w, -1)
        D = losses - self.min_losses + 1e-8
        c = (z / D).sum().detach()
        loss = (D.log() * z / c).sum()
        return loss

    def backward(self, losses, shared_parameters=None, task_specific_parameters=None):
        loss = self.get_weighted_loss(losses=losses)
        if self.max_norm > 0 and shared_parameters is not None:
            torch.nn.utils.clip_grad_norm_(shared_parameters, self.max_norm)
        loss.backward()
        return loss


model = nn.Linear(8, 2)
famo = FAMO(n_tasks=2, device="cpu")
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x, y = torch.randn(16, 8), torch.randn(16, 2)
optimizer.zero_grad()
losses = ((model(x) - y) ** 2).mean(0)
famo.backward(losses, shared_parameters=list(model.parameters()))
optimizer.step()
