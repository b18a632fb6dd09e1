# source: https://github.com/jax-ml/jax/issues/21723
# framework: jax
# kind: nan-grad-singular-point
# negative: the accepted fix — jnp.sum(x**2) instead of the squared norm
# mimics: positive/2112_jax_lambda_norm_squared_at_zero.py
# expect: no finding
# checked: ran, no error
import jax
import jax.numpy as jnp

f = lambda x: jnp.sum(x**2)
jax.grad(f)(0.)
