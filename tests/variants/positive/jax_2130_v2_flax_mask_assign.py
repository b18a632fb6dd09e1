# source: variant of 2130_jax_jit_warp_boxes_item_assignment.py
# framework: jax
# family: F
# kind: jax-inplace-update
# pitfall: a flax module's __call__ masks the logits with boolean-index assignment logits[mask] = -1e9; JAX arrays are immutable (use jnp.where)
# expect: line 18 — in-place masked assignment into a traced jax array inside __call__
# checked: ran, reproduces (TypeError: JAX arrays are immutable and do not support in-place item assignment)
import jax
import jax.numpy as jnp
import flax.linen as nn


class MaskedHead(nn.Module):
    @nn.compact
    def __call__(self, x, mask):
        logits = nn.Dense(4)(x)
        logits = logits.astype(jnp.float32)
        logits[mask] = -1e9
        return jax.nn.log_softmax(logits)


model = MaskedHead()
x, mask = jnp.ones((2, 3)), jnp.array([[True, False, False, False]] * 2)
params = model.init(jax.random.PRNGKey(0), x, mask)
