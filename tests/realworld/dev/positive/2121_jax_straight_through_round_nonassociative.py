# source: https://github.com/jax-ml/jax/issues/9032
# framework: jax
# family: E
# kind: other-straight-through-rounding
# pitfall: the straight-through estimator x + stop_gradient(round(x) - x) is not exactly round(x) in floating point (non-associativity), so quantised values drift from the true rounding
# expect: line 15 — x + stop_gradient(f(x) - x) does not reproduce f(x) exactly
# checked: ran, not reproduced on 100k random inputs (the thread's mismatch needs specific values)
import jax
import jax.numpy as jnp

def f(x):
  return jnp.round(x)  # non-differentiable

def straight_through_f(x):
  return x + jax.lax.stop_gradient(f(x) - x)
