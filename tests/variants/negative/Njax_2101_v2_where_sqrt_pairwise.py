# source: variant of 2101_jax_where_sqrt_branch_nan.py
# framework: jax
# kind: where-nan-gradient
# negative: the bug repaired (was: a pairwise-distance helper returns jnp.where(d2 > 0, jnp.sqrt(d2), 0.); the diagonal d2 is exactly 0, so the untaken sqrt branch gives a nan gradient)
# mimics: positive/2101_v2_where_sqrt_pairwise.py
# expect: no finding
# checked: ran, no error (fixed twin; finite gradient)
import jax
import jax.numpy as jnp


def pairwise_dist(pos):
    diff = pos[:, None, :] - pos[None, :, :]
    d2 = jnp.sum(diff ** 2, axis=-1)
    safe = jnp.where(d2 > 0, d2, 1.0)
    return jnp.where(d2 > 0, jnp.sqrt(safe), 0.0)


def energy(pos):
    return jnp.sum(pairwise_dist(pos))


print(jax.grad(energy)(jnp.array([[0.0, 0.0], [1.0, 0.0]])))
