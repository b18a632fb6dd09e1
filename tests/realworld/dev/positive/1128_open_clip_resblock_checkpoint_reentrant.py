# source: https://github.com/mlfoundations/open_clip/issues/573
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: the transformer's residual blocks are wrapped in the default (reentrant) torch.utils.checkpoint; when the tokens entering the stack do not require grad (frozen stem), PyTorch warns "None of the inputs have requires_grad=True" and the blocks' gradients are dropped; use_reentrant=False fixed it and improved the loss
# expect: line 33 — reentrant checkpoint of a residual block whose input does not require grad: the block's parameters get no gradient
# checked: ran, reproduces (the first block's weights get no gradient)

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, d_model * 4), nn.GELU(), nn.Linear(d_model * 4, d_model))

    def forward(self, x, k_x=None, v_x=None, attn_mask=None):
        return x + self.mlp(self.ln_1(x))


class Transformer(nn.Module):
    def __init__(self, width, layers):
        super().__init__()
        self.grad_checkpointing = False
        self.resblocks = nn.ModuleList([ResidualAttentionBlock(width) for _ in range(layers)])

    def forward(self, x, attn_mask=None):
        for r in self.resblocks:
            if self.grad_checkpointing and not torch.jit.is_scripting():
                x = checkpoint(r, x, None, None, attn_mask)
            else:
                x = r(x, attn_mask=attn_mask)
        return x


conv1 = nn.Conv2d(3, 16, 4, 4)
conv1.requires_grad_(False)
transformer = Transformer(16, 2)
transformer.grad_checkpointing = True
transformer.train()
x = conv1(torch.randn(2, 3, 16, 16)).flatten(2).transpose(1, 2)
out = transformer(x)
loss = out.pow(2).mean() if out.requires_grad else None
print(out.requires_grad)
