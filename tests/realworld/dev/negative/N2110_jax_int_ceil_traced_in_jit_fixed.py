# source: https://github.com/asantini29/phentax/pull/28
# framework: jax
# kind: jax-concretization
# negative: the accepted fix — compute the step count on Python floats with math.ceil
# mimics: positive/2110_jax_int_ceil_traced_in_jit.py
# expect: no finding
# checked: ran, no error
import math

import jax
import jax.numpy as jnp


class IMRPhenomTHM:
    def __init__(self, delta_t):
        self.delta_t = delta_t

    def initial_processing(self, T):
        n_steps = math.ceil(T / self.delta_t)
        times = jnp.arange(n_steps) * self.delta_t
        return times

    def __call__(self, T):
        return jax.jit(self.initial_processing, static_argnums=0)(T)
