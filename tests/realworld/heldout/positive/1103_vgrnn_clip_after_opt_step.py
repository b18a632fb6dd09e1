# source: https://github.com/VGraphRNN/VGRNN/issues/4
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: the VGRNN training loop calls nn.utils.clip_grad_norm() after opt.step(), so the (recurrent, explosion-prone) update is never clipped
# expect: line 27 — clipping after opt.step() does not affect the update that was just made
# checked: ran (the clip runs after the step; the update is unclipped)

import torch
import torch.nn as nn

clip = 10
model = nn.GRU(8, 16)
decoder = nn.Linear(16, 8)
opt = torch.optim.Adam(list(model.parameters()) + list(decoder.parameters()), lr=1e-2)

for k in range(3):
    opt.zero_grad()
    x_in = torch.randn(5, 4, 8)
    out, h = model(x_in)
    kld_loss = out.pow(2).mean()
    nll_loss = (decoder(out) - x_in).pow(2).mean()
    loss = kld_loss + nll_loss
    loss.backward()
    opt.step()

    nn.utils.clip_grad_norm_(model.parameters(), clip)
