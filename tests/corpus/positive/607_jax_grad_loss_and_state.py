# source: https://jax.readthedocs.io/en/latest/_autosummary/jax.grad.html
# family: F
# pitfall: loss function returns (loss, new_batch_stats) for a batch-norm model, but jax.grad is called without has_aux=True
# expect: line 27 — jax.grad requires a scalar output; a (loss, state) tuple raises TypeError ("Gradient only defined for scalar-output functions") without has_aux=True

import jax
import jax.numpy as jnp


def apply_model(params, stats, x, momentum=0.9):
    h = x @ params["w"]
    mean, var = h.mean(0), h.var(0)
    new_stats = {"mean": momentum * stats["mean"] + (1 - momentum) * mean,
                 "var": momentum * stats["var"] + (1 - momentum) * var}
    return (h - mean) / jnp.sqrt(var + 1e-5) @ params["v"], new_stats


def loss_fn(params, stats, x, y):
    pred, new_stats = apply_model(params, stats, x)
    return jnp.mean((pred - y) ** 2), new_stats


key = jax.random.PRNGKey(0)
params = {"w": jax.random.normal(key, (8, 16)), "v": jnp.zeros((16, 1))}
stats = {"mean": jnp.zeros(16), "var": jnp.ones(16)}
x, y = jax.random.normal(key, (32, 8)), jnp.ones((32, 1))
grads, stats = jax.grad(loss_fn)(params, stats, x, y)
