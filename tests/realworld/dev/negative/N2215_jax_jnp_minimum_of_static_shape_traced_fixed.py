# source: https://github.com/jax-ml/jax/issues/4798
# framework: jax
# kind: jax-concretization
# negative: the remedy of the omnistaging notes the answer links — do static shape arithmetic with Python (min) rather than jax.numpy, so the size stays a concrete int
# mimics: positive/2215_jax_jnp_minimum_of_static_shape_traced.py
# expect: no finding
# checked: ran, no error
import jax.numpy as jnp
import jax
from functools import partial

@partial(jax.jit, static_argnums=(0,))
def foo(n, x):
    n_aval = jnp.shape(x)[0]
    n_actual = min(n_aval, n)
    print(type(n), type(n_aval), type(n_actual))
    return jnp.arange(n_actual)

n = 5
x = jnp.arange(10)
foo(n,x)
