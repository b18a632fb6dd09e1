# source: variant of 2136_jax_grad_has_aux_three_outputs.py
# framework: jax
# family: F
# kind: jax-has-aux
# pitfall: jax.grad(..., has_aux=True) of a def returning loss and two aux values as a flat 3-tuple instead of (loss, (a, b))
# expect: line 19 — grad(has_aux=True) of a function returning three values
# checked: ran, reproduces (TypeError: expected function with aux output to return a two-element tuple)
import jax
import jax.numpy as jnp


def loss_with_stats(w, x, y):
    pred = x @ w
    mse = jnp.mean((pred - y) ** 2)
    mae = jnp.mean(jnp.abs(pred - y))
    return mse, mae, pred


grad_fn = jax.grad(loss_with_stats, has_aux=True)
g, (mae, pred) = grad_fn(jnp.zeros(3), jnp.ones((4, 3)), jnp.ones(4))
