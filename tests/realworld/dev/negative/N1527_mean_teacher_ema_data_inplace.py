# source: https://github.com/CuriousAI/mean-teacher/issues/28
# framework: torch
# family: D
# kind: inplace-on-leaf
# negative: the teacher's parameters are updated in place through .data (ema_param.data.mul_(alpha).add_(1 - alpha, param.data)); .data bypasses autograd, and add_(scalar, tensor) is the old alpha-first overload, equivalent to add_((1 - alpha) * param.data)
# mimics: in-place update of parameters that require grad
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


def update_ema_variables(model, ema_model, alpha, global_step):
    # Use the true average until the exponential average is more correct
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(1 - alpha, param.data)


model = nn.Linear(4, 2)
ema_model = nn.Linear(4, 2)
for param in ema_model.parameters():
    param.detach_()
update_ema_variables(model, ema_model, 0.999, 10)
