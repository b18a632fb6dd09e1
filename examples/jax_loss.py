"""JAX: a Python float() on a traced value, and a tuple-returning loss without has_aux."""

import jax
import jax.numpy as jnp


def clipped_error(pred, target, limit=1.0):
    err = float(jnp.abs(pred - target).mean())  # concrete value of a tracer (GL121)
    return min(err, limit)


def loss_fn(w, x, y):
    pred = x @ w
    return jnp.mean((pred - y) ** 2) + clipped_error(pred, y), {"pred": pred}


w = jnp.ones((3, 1))
x, y = jnp.ones((8, 3)), jnp.zeros((8, 1))
(loss, aux), grads = jax.value_and_grad(loss_fn)(w, x, y)  # returns (loss, aux) without has_aux=True (GL504)
