# source: https://github.com/jax-ml/jax/issues/5798
# framework: jax
# kind: where-nan-gradient
# negative: the accepted fix — the double-where trick: feed sqrt a safe value where the branch is not taken
# mimics: positive/2101_jax_where_sqrt_branch_nan.py
# expect: no finding
# checked: ran, grad at 0.0 is 1.0
import jax.numpy as jnp
from jax import grad

def f(x):
  condition = x < 1
  x_valid = jnp.where(condition, 1, x)
  return jnp.where(condition, x, jnp.sqrt(x_valid))

df = grad(f)
print(df(1e-9))
print(df(0.0))
