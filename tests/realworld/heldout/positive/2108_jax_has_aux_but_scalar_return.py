# source: https://github.com/jax-ml/jax/issues/1105
# framework: jax
# family: F
# kind: jax-has-aux
# pitfall: grad(f, has_aux=True) is applied to a function that returns a single array, so JAX tries to unpack it as (value, aux) and fails with an obscure TypeError
# expect: line 13 — has_aux=True for a function that returns no auxiliary value
# checked: ran, reproduces (TypeError: expected function with aux output to return a two-element tuple)
from jax import jit, grad
import jax.numpy as jnp

def f(x):
  return 2 * x
g = grad(f, has_aux=True)
x = jnp.ones([])
g(x)
