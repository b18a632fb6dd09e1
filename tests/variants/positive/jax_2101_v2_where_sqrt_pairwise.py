# source: variant of 2101_jax_where_sqrt_branch_nan.py
# framework: jax
# family: E
# kind: where-nan-gradient
# pitfall: a pairwise-distance helper returns jnp.where(d2 > 0, jnp.sqrt(d2), 0.); the diagonal d2 is exactly 0, so the untaken sqrt branch gives a nan gradient
# expect: line 15 — the untaken sqrt branch of jnp.where is differentiated at d2 = 0 (the diagonal)
# checked: ran, reproduces (gradient with respect to the positions is all nan)
import jax
import jax.numpy as jnp


def pairwise_dist(pos):
    diff = pos[:, None, :] - pos[None, :, :]
    d2 = jnp.sum(diff ** 2, axis=-1)
    return jnp.where(d2 > 0, jnp.sqrt(d2), 0.0)


def energy(pos):
    return jnp.sum(pairwise_dist(pos))


print(jax.grad(energy)(jnp.array([[0.0, 0.0], [1.0, 0.0]])))
