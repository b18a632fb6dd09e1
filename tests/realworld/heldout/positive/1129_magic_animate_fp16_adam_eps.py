# source: https://github.com/jinxixiang/magic_animate_unofficial/issues/6
# framework: torch
# family: E
# kind: fp16-master-weights
# pitfall: to fit in memory the UNet is trained with its parameters in float16 and a stock AdamW (eps=1e-8); in half precision the tiny second-moment estimates and eps round to 0, so the update divides by zero and the weights become NaN after optimizer.step() (fp32 works; a larger adam_epsilon helps)
# expect: line 19 — AdamW over float16 parameters with eps=1e-8: eps is below float16's smallest subnormal (6e-8) and rounds to 0, so small-gradient entries get inf/NaN updates
# checked: ran, reproduces (parameters become NaN/inf after the step)

import torch
import torch.nn as nn

learning_rate = 1e-5
adam_beta1, adam_beta2 = 0.9, 0.999
adam_weight_decay = 1e-2
adam_epsilon = 1e-8

unet = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 4, 3, padding=1))
unet.to(dtype=torch.float16)
optimizer = torch.optim.AdamW(
    unet.parameters(),
    lr=learning_rate,
    betas=(adam_beta1, adam_beta2),
    weight_decay=adam_weight_decay,
    eps=adam_epsilon,
)

latents = torch.randn(1, 4, 8, 8, dtype=torch.float16)
noise = torch.randn_like(latents)
model_pred = unet(latents)
loss = nn.functional.mse_loss(model_pred.float(), noise.float()) * 1e-4
loss.backward()
optimizer.step()
print(torch.isfinite(torch.cat([p.flatten() for p in unet.parameters()])).all())
