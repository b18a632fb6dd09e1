# source: variant of 2110_jax_int_ceil_traced_in_jit.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: math.ceil on a traced value inside a jitted method (math.ceil converts with float/__ceil__, which needs a concrete value)
# expect: line 19 — math.ceil of the traced argument T divided by the step
# checked: ran, reproduces (ConcretizationTypeError)
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
        return jax.jit(self.initial_processing)(T)


print(Waveform(0.1)(jnp.float32(1.0)))
