# source: https://github.com/jax-ml/jax/issues/21723
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: a lambda computes jnp.linalg.norm(x) ** 2 and jax.grad is evaluated at 0.; the norm's derivative is undefined there and the result is nan
# expect: line 11 — norm(x) ** 2 differentiated at 0
# checked: ran, reproduces (gradient nan)
import jax
import jax.numpy as jnp

f = lambda x: jnp.linalg.norm(x) ** 2
jax.grad(f)(0.)
