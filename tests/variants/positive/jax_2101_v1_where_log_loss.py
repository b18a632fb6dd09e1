# source: variant of 2101_jax_where_sqrt_branch_nan.py
# framework: jax
# family: E
# kind: where-nan-gradient
# pitfall: jnp.where picks 0 for non-positive x, but the untaken jnp.log branch is still differentiated at 0, so the gradient is nan (the double-where fix is needed)
# expect: line 13 — the untaken log branch of jnp.where has an infinite derivative at 0, turning the gradient into nan
# checked: ran, reproduces (grad at x = [0, 1] is [nan, 1])
import jax
import jax.numpy as jnp


def xlogx(x):
    return jnp.sum(jnp.where(x > 0, x * jnp.log(x), 0.0))


print(jax.grad(xlogx)(jnp.array([0.0, 1.0])))
