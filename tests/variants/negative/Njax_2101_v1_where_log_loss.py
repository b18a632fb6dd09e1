# source: variant of 2101_jax_where_sqrt_branch_nan.py
# framework: jax
# kind: where-nan-gradient
# negative: the bug repaired (was: jnp.where picks 0 for non-positive x, but the untaken jnp.log branch is still differentiated at 0, so the gradient is nan (the double-where fix is needed))
# mimics: positive/2101_v1_where_log_loss.py
# expect: no finding
# checked: ran, no error (fixed twin; finite gradient)
import jax
import jax.numpy as jnp


def xlogx(x):
    safe = jnp.where(x > 0, x, 1.0)
    return jnp.sum(jnp.where(x > 0, safe * jnp.log(safe), 0.0))


print(jax.grad(xlogx)(jnp.array([0.0, 1.0])))
