# source: https://jax.readthedocs.io/en/latest/notebooks/Common_Gotchas_in_JAX.html#in-place-updates
# family: F
# negative: differentiable simulation writes the trajectory functionally with traj = traj.at[t].set(x), which jax.grad supports
# mimics: per-index writes into an array inside a differentiated function
# expect: no finding

import jax
import jax.numpy as jnp


def rollout_loss(k, x0=1.0, dt=0.1, steps=50):
    traj = jnp.zeros(steps)
    x, v = x0, 0.0
    for t in range(steps):
        v = v - dt * k * x
        x = x + dt * v
        traj = traj.at[t].set(x)
    return jnp.sum((traj - jnp.cos(jnp.sqrt(2.0) * dt * jnp.arange(1, steps + 1))) ** 2)


k = 1.0
for it in range(100):
    k -= 0.01 * jax.grad(rollout_loss)(k)
print(k)
