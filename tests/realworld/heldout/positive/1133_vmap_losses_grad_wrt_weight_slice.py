# source: https://github.com/pytorch/pytorch/issues/120538
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: per-model losses of a vmapped ensemble are differentiated with respect to slices params['weight'][i] taken after the forward; those slices are new tensors the losses never used, so every gradient is None
# expect: line 30 — autograd.grad with respect to a slice made after the forward: the slice is not on the loss's path (differentiate w.r.t. params['weight'] and index the result)
# checked: ran, reproduces (every gradient is None)

import torch
import torch.nn as nn
from torch.func import functional_call, vmap, stack_module_state


def compute_loss(params, buffers, inputs, outputs):
    preds = functional_call(models[0], (params, buffers), inputs)
    return loss_fn(preds, outputs)


models = [nn.Linear(2, 1) for _ in range(5)]
params, buffers = stack_module_state(models)
inputs = torch.randn(5, 2, 2)
outputs = torch.randn(5, 2, 1)
loss_fn = nn.MSELoss()

losses = vmap(compute_loss)(params, buffers, inputs, outputs)

grads = []
print('Gradients w/ slicing:')
for loss, weight in zip(losses, params['weight']):
    grads.append(torch.autograd.grad(loss, weight, create_graph=True, allow_unused=True))
    print(grads[-1])
