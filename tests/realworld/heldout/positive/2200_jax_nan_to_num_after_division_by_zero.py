# source: https://github.com/jax-ml/jax/issues/8247
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: x / jnp.linspace(-1, 1, 21) divides by the zero in the grid; nan_to_num repairs the forward value, but the backward pass still multiplies by 1/0, so grad(foo) is NaN
# expect: line 13 — division by a grid containing 0, "fixed" with nan_to_num after the fact (the answer: avoid creating the inf, replace the zero divisor first)
# checked: ran on jax 0.10.2: does not reproduce there (its linspace midpoint is 7.5e-9, not exactly 0, so grad is 1.3e8 instead of nan); the thread shows nan on its version
import jax.numpy as jnp
from jax import grad


def foo(x):
  return jnp.sum(jnp.nan_to_num(x/jnp.linspace(-1,1,21), posinf = 0))

foo(2.)

grad(foo)(2.)
