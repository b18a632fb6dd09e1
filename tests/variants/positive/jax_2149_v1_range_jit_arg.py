# source: variant of 2149_waymax_jit_range_over_state_field.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: range(num_steps) inside a jitted rollout, with num_steps a traced argument (not marked static): TracerIntegerConversionError
# expect: line 19 — range() over the traced argument num_steps
# checked: ran, reproduces (TracerIntegerConversionError)
import jax
import jax.numpy as jnp


def step(state, action):
    return state + 0.1 * action


@jax.jit
def rollout(state, actions, num_steps):
    traj = []
    for t in range(num_steps):
        state = step(state, actions[t])
        traj.append(state)
    return jnp.stack(traj)


rollout(jnp.zeros(2), jnp.ones((5, 2)), 5)
