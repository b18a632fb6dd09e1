# source: variant of 2149_waymax_jit_range_over_state_field.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: range(num_steps) inside a jitted rollout, with num_steps a traced argument (not marked static): TracerIntegerConversionError)
# mimics: positive/2149_v1_range_jit_arg.py
# expect: no finding
# checked: ran, no error (fixed twin)
from functools import partial
import jax
import jax.numpy as jnp


def step(state, action):
    return state + 0.1 * action


@partial(jax.jit, static_argnames="num_steps")
def rollout(state, actions, num_steps):
    traj = []
    for t in range(num_steps):
        state = step(state, actions[t])
        traj.append(state)
    return jnp.stack(traj)


rollout(jnp.zeros(2), jnp.ones((5, 2)), 5)
