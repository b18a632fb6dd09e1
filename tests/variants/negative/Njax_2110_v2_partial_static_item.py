# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: dt is static but T is traced; jnp.ceil(T / dt).astype(int).item() needs a concrete value under jit)
# mimics: positive/2110_v2_partial_static_item.py
# expect: no finding
# checked: ran, no error (fixed twin)
import math
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("T", "dt"))
def time_grid(T, dt):
    n_steps = math.ceil(T / dt)
    return jnp.arange(n_steps) * dt


print(time_grid(1.0, dt=0.1))
