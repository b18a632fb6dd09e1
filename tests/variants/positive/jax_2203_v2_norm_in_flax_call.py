# source: variant of 2203_jax_normalize_by_linalg_norm_zero_row.py
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: a flax module normalizes its input rows with x / jnp.linalg.norm(x); a padded all-zero row gives 0/0 in the gradient (NaN)
# expect: line 16 — jnp.linalg.norm of rows that can be all zero, divided into x
# checked: ran, reproduces (NaN gradient with respect to the input for the zero row)
import jax
import jax.numpy as jnp
import flax.linen as nn


class CosineHead(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = x / jnp.linalg.norm(x, axis=-1, keepdims=True)
        return nn.Dense(3, use_bias=False)(x)


model = CosineHead()
x = jnp.zeros((2, 4)).at[0].set(1.0)
params = model.init(jax.random.PRNGKey(0), x)
print(jax.grad(lambda x: model.apply(params, x).sum())(x))
