# source: variant of 2235_blackjax_chees_float_of_traced_step_size.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: a warmup class jits its run method; float() of jnp.exp(state.log_step_size) where state is a traced NamedTuple argument
# expect: line 25 — float() of jnp.exp of a field of the traced adaptation state
# checked: ran, reproduces (ConcretizationTypeError)
from typing import NamedTuple

import jax
import jax.numpy as jnp


class AdaptState(NamedTuple):
    log_step_size: jnp.ndarray
    trajectory_length: jnp.ndarray


class Warmup:
    def __init__(self, length_floor):
        self.length_floor = length_floor
        self.run = jax.jit(self._run)

    def _run(self, state):
        step_size = float(jnp.exp(state.log_step_size))
        return jnp.maximum(state.trajectory_length, self.length_floor * step_size)


Warmup(0.5).run(AdaptState(jnp.float32(-2.0), jnp.float32(1.0)))
