# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: math.ceil on a traced value inside a jitted method (math.ceil converts with float/__ceil__, which needs a concrete value))
# mimics: positive/2110_v3_math_ceil.py
# expect: no finding
# checked: ran, no error (fixed twin)
import math

import jax
import jax.numpy as jnp


class Waveform:
    def __init__(self, delta_t):
        self.delta_t = delta_t

    def initial_processing(self, T):
        n_steps = math.ceil(T / self.delta_t)
        return jnp.arange(n_steps) * self.delta_t

    def __call__(self, T):
        return jax.jit(self.initial_processing, static_argnums=0)(T)


print(Waveform(0.1)(1.0))
