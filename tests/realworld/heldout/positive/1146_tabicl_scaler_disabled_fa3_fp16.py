# source: https://github.com/soda-inria/tabicl/issues/153
# framework: torch
# family: E
# kind: fp16-without-scaler
# pitfall: the GradScaler is only enabled when the autocast dtype is float16, but with --dtype float32 the FlashAttention-3 path still casts Q/K/V to float16, so the attention backward runs in float16 with no loss scaling
# expect: line 37 — the scaler is disabled for "float32" runs although sdpa_with_flattened_batch() computes attention (and its gradients) in float16; small gradients underflow (fixed by PR #154: use the scaler for float32 + FlashAttention-3)
# checked: parse only (FlashAttention-3 needs a Hopper GPU); reconstructed from the two snippets quoted in the issue (scaler construction after PR #151 and the Q/K/V cast), the surrounding trainer lines are a minimal frame
import torch
from flash_attn_interface import flash_attn_func as flash_attn3


def sdpa_with_flattened_batch(q, k, v, use_flash_attn3=True):
    orig_dtype = q.dtype

    if orig_dtype not in (torch.float16, torch.bfloat16):
        fa_dtype = torch.float16
    else:
        fa_dtype = orig_dtype

    q_fa = q.transpose(1, 2).contiguous().to(fa_dtype)
    k_fa = k.transpose(1, 2).contiguous().to(fa_dtype)
    v_fa = v.transpose(1, 2).contiguous().to(fa_dtype)

    out = flash_attn3(q_fa, k_fa, v_fa)
    out = out.to(orig_dtype)
    return out.transpose(1, 2)


class Trainer:
    def __init__(self, model, optimizer, amp=True, amp_dtype=torch.float32):
        self.model = model
        self.optimizer = optimizer
        self.amp = amp
        self.amp_dtype = amp_dtype
        self.scaler = torch.GradScaler(
            "cuda",
            enabled=self.amp and amp_dtype == torch.float16,
        )

    def train_step(self, X, y):
        with torch.autocast("cuda", dtype=self.amp_dtype, enabled=self.amp and self.amp_dtype != torch.float32):
            loss = self.model(X, y)
        self.optimizer.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()
