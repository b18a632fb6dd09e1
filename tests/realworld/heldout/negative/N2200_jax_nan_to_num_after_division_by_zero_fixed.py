# source: https://github.com/jax-ml/jax/issues/8247
# framework: jax
# kind: nan-grad-singular-point
# negative: the accepted fix — replace the zero divisor by inf before dividing, so no inf/nan is ever created
# mimics: positive/2200_jax_nan_to_num_after_division_by_zero.py
# expect: no finding
# checked: ran, grad is finite
import jax.numpy as jnp
from jax import grad


def foo(x):
    div = jnp.linspace(-1, 1, 21)
    div = jnp.where(div == 0, jnp.inf, div)
    return jnp.sum(x/div)

foo(2.)

grad(foo)(2.)
