# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: dt is static but T is traced; jnp.ceil(T / dt).astype(int).item() needs a concrete value under jit
# expect: line 16 — .item() of a jnp result computed from the traced argument T
# checked: ran, reproduces (ConcretizationTypeError)
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("dt",))
def time_grid(T, dt):
    n_steps = jnp.ceil(T / dt).astype(jnp.int32).item()
    return jnp.arange(n_steps) * dt


print(time_grid(1.0, dt=0.1))
