# source: https://github.com/open-mmlab/OpenPCDet/issues/960
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: the adam_onecycle builder collects parameters from the flattened leaf modules only, so an nn.Parameter registered directly on a non-leaf module (here a learnable fusion weight) is never given to the optimizer
# expect: line 36 — layer groups are built from leaf modules only; parameters owned by non-leaf modules are left out of the optimizer
# checked: ran, reproduces (the module-level nn.Parameter is not optimised)

from functools import partial

import torch
import torch.nn as nn
import torch.optim as optim


class FusionHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fuse_weight = nn.Parameter(torch.ones(1))
        self.conv_a = nn.Conv1d(4, 4, 1)
        self.conv_b = nn.Conv1d(4, 4, 1)

    def forward(self, x):
        return self.fuse_weight * self.conv_a(x) + self.conv_b(x)


def build_optimizer(model, optim_cfg):
    if optim_cfg['OPTIMIZER'] == 'adam_onecycle':
        def children(m: nn.Module):
            return list(m.children())

        def num_children(m: nn.Module) -> int:
            return len(children(m))

        flatten_model = lambda m: sum(map(flatten_model, m.children()), []) if num_children(m) else [m]
        get_layer_groups = lambda m: [nn.Sequential(*flatten_model(m))]

        optimizer_func = partial(optim.Adam, betas=(0.9, 0.99))
        layer_groups = get_layer_groups(model)
        optimizer = optimizer_func([p for g in layer_groups for p in g.parameters()], lr=3e-3)
        return optimizer


model = nn.Sequential(FusionHead(), nn.ReLU())
optimizer = build_optimizer(model, {'OPTIMIZER': 'adam_onecycle'})
in_opt = {id(p) for g in optimizer.param_groups for p in g['params']}
print(id(model[0].fuse_weight) in in_opt)
