# source: https://github.com/jax-ml/jax/issues/9032
# framework: jax
# kind: other-straight-through-rounding
# negative: the accepted fix — x - stop_gradient(x) + stop_gradient(f(x)), which is exactly f(x)
# mimics: positive/2121_jax_straight_through_round_nonassociative.py
# expect: no finding
# checked: ran, no error
import jax
import jax.numpy as jnp

def f(x):
  return jnp.round(x)  # non-differentiable

def straight_through_f(x):
  # computes (x - x) + fn(x)
  return x - jax.lax.stop_gradient(x) + jax.lax.stop_gradient(f(x))
