# source: https://github.com/LZGMatrix/BOP19_CDPN_2019ICCV/issues/4
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the coordinate maps are decoded with torch.argmax over the bins before the loss, so the loss has no grad_fn
# expect: line 31 — torch.argmax is not differentiable; the loss computed from its (integer) result does not require grad
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad)

import torch
import torch.nn as nn


class cfg:
    class network:
        coor_bin = 64


model = nn.Conv2d(3, 3 * (cfg.network.coor_bin + 1), 1)
optimizer = torch.optim.Adam(model.parameters())
inp = torch.randn(1, 3, 8, 8)
target_coor = torch.rand(8, 8, 3) * 2 - 1

out = model(inp).view(1, 3, cfg.network.coor_bin + 1, 8, 8)
output_coor_x_, output_coor_y_, output_coor_z_ = out[:, 0], out[:, 1], out[:, 2]
output_coor_x_ = output_coor_x_.squeeze()
output_coor_y_ = output_coor_y_.squeeze()
output_coor_z_ = output_coor_z_.squeeze()

####

output_coor_ = torch.stack([torch.argmax(output_coor_x_, axis=0),
                            torch.argmax(output_coor_y_, axis=0),
                            torch.argmax(output_coor_z_, axis=0)], axis=2)
output_coor_[output_coor_ == cfg.network.coor_bin] = 0
output_coor_ = 2.0 * output_coor_.float() / (63.0 - 1.0) - 1.0      # [-1,1]

loss = nn.functional.l1_loss(output_coor_, target_coor)
optimizer.zero_grad()
loss.backward()
optimizer.step()
