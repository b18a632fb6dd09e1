# source: https://jax.readthedocs.io/en/latest/_autosummary/jax.grad.html
# family: F
# negative: loss returns (loss, new_batch_stats) and is differentiated with jax.grad(..., has_aux=True), which returns (grads, aux)
# mimics: jax.grad of a function returning a tuple
# expect: no finding

import jax
import jax.numpy as jnp


def loss_fn(params, stats, x, y, momentum=0.9):
    h = x @ params["w"]
    mean, var = h.mean(0), h.var(0)
    pred = (h - mean) / jnp.sqrt(var + 1e-5) @ params["v"]
    new_stats = {"mean": momentum * stats["mean"] + (1 - momentum) * mean,
                 "var": momentum * stats["var"] + (1 - momentum) * var}
    return jnp.mean((pred - y) ** 2), new_stats


key = jax.random.PRNGKey(0)
params = {"w": jax.random.normal(key, (8, 16)), "v": jnp.zeros((16, 1))}
stats = {"mean": jnp.zeros(16), "var": jnp.ones(16)}
x, y = jax.random.normal(key, (32, 8)), jnp.ones((32, 1))
grads, stats = jax.grad(loss_fn, has_aux=True)(params, stats, x, y)
params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
