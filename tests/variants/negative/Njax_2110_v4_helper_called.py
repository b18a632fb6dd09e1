# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: a helper converts with int(jnp.ceil(...)); it is called from a jitted function with the traced T)
# mimics: positive/2110_v4_helper_called.py
# expect: no finding
# checked: ran, no error (fixed twin)
import math
from functools import partial
import jax
import jax.numpy as jnp


def num_steps(T, delta_t):
    return math.ceil(T / delta_t)


@partial(jax.jit, static_argnums=0)
def make_times(T):
    delta_t = 0.1
    n = num_steps(T, delta_t)
    return jnp.arange(n) * delta_t


print(make_times(1.0))
