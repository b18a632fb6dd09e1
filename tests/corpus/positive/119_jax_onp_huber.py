# source: https://jax.readthedocs.io/en/latest/errors.html#jax.errors.TracerArrayConversionError
# family: A
# pitfall: Huber loss inside a jax.grad/jit-transformed function uses classic NumPy (imported as onp) on the residual
# expect: line 14 — onp.abs/onp.where on a tracer: TracerArrayConversionError (NumPy cannot be traced or differentiated); use jnp

import jax
import jax.numpy as jnp
import numpy as onp


def huber_loss(params, x, y, delta=1.0):
    pred = jnp.tanh(x @ params["w1"]) @ params["w2"]
    resid = pred - y
    per_example = onp.where(onp.abs(resid) < delta, 0.5 * resid ** 2, delta * (onp.abs(resid) - 0.5 * delta))
    return jnp.mean(per_example)


key1, key2 = jax.random.split(jax.random.PRNGKey(0))
params = {"w1": jax.random.normal(key1, (5, 16)), "w2": jax.random.normal(key2, (16, 1))}
x = onp.random.randn(64, 5).astype(onp.float32)
y = onp.random.randn(64, 1).astype(onp.float32)

grad_fn = jax.jit(jax.grad(huber_loss))
for step in range(100):
    grads = grad_fn(params, x, y)
    params = jax.tree_util.tree_map(lambda p, g: p - 1e-2 * g, params, grads)
