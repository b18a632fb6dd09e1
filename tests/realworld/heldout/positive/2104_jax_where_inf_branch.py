# source: https://github.com/jax-ml/jax/issues/2630
# framework: jax
# family: E
# kind: where-nan-gradient
# pitfall: the inactive branch x * jnp.inf has an infinite derivative; where multiplies it by zero and the gradient becomes nan
# expect: line 12 — where with an infinite inactive branch gives a nan gradient
# checked: ran, reproduces (gradient nan)
import jax
import jax.numpy as jnp

def f(x):
  return jnp.where(x > 0, 0, x * jnp.inf)
jax.grad(f)(1.)
