# source: variant of 2130_jax_jit_warp_boxes_item_assignment.py
# framework: jax
# kind: jax-inplace-update
# negative: the bug repaired (was: a flax module's __call__ masks the logits with boolean-index assignment logits = jnp.where(mask, -1e9, logits); JAX arrays are immutable (use jnp.where))
# mimics: positive/2130_v2_flax_mask_assign.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp
import flax.linen as nn


class MaskedHead(nn.Module):
    @nn.compact
    def __call__(self, x, mask):
        logits = nn.Dense(4)(x)
        logits = logits.astype(jnp.float32)
        logits = jnp.where(mask, -1e9, logits)
        return jax.nn.log_softmax(logits)


model = MaskedHead()
x, mask = jnp.ones((2, 3)), jnp.array([[True, False, False, False]] * 2)
params = model.init(jax.random.PRNGKey(0), x, mask)
