# source: variant of 2149_waymax_jit_range_over_state_field.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the state is a NamedTuple pytree passed to jax.jit, so state.remaining is a traced int; range() over it raises TracerIntegerConversionError
# expect: line 22 — range() over a field of the traced state pytree
# checked: ran, reproduces (TracerIntegerConversionError)
from typing import NamedTuple

import jax
import jax.numpy as jnp


class SimState(NamedTuple):
    pos: jnp.ndarray
    vel: jnp.ndarray
    remaining: jnp.ndarray


def simulate(state):
    pos, vel = state.pos, state.vel
    for _ in range(state.remaining):
        pos = pos + 0.1 * vel
    return state._replace(pos=pos, remaining=jnp.array(0))


simulate_jit = jax.jit(simulate)
simulate_jit(SimState(jnp.zeros(2), jnp.ones(2), jnp.array(10)))
