# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: int(jnp.ceil(T / dt)) inside a @jax.jit function: T is a traced argument, int() needs a concrete value)
# mimics: positive/2110_v1_decorated_fn.py
# expect: no finding
# checked: ran, no error (fixed twin)
import math
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0, 1))
def time_grid(T, dt):
    n_steps = math.ceil(T / dt)
    return jnp.arange(n_steps) * dt


print(time_grid(1.0, 0.1))
