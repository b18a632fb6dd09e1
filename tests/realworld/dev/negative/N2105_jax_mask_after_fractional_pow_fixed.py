# source: https://github.com/jax-ml/jax/issues/19089
# framework: jax
# kind: where-nan-gradient
# negative: the accepted fix — filter before the power (pre_filter=True)
# mimics: positive/2105_jax_mask_after_fractional_pow.py
# expect: no finding
# checked: ran, gradient 0.5
import jax.numpy as jnp
from jax import grad

def f(x):
    delta = jnp.array((0, 1)) * x
    return jnp.sum(jnp.where(delta > 0, delta, 0) ** 0.5)
print(grad(f)(1.))
