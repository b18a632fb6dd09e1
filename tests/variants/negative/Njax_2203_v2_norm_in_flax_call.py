# source: variant of 2203_jax_normalize_by_linalg_norm_zero_row.py
# framework: jax
# kind: nan-grad-singular-point
# negative: the bug repaired (was: a flax module normalizes its input rows with x / jnp.linalg.norm(x); a padded all-zero row gives 0/0 in the gradient (NaN))
# mimics: positive/2203_v2_norm_in_flax_call.py
# expect: no finding
# checked: ran, no error (fixed twin; finite gradient)
import jax
import jax.numpy as jnp
import flax.linen as nn


class CosineHead(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = x * jax.lax.rsqrt(jnp.maximum(jnp.sum(x * x, axis=-1, keepdims=True), 1e-12))
        return nn.Dense(3, use_bias=False)(x)


model = CosineHead()
x = jnp.zeros((2, 4)).at[0].set(1.0)
params = model.init(jax.random.PRNGKey(0), x)
print(jax.grad(lambda x: model.apply(params, x).sum())(x))
