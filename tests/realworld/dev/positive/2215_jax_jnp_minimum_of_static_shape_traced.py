# source: https://github.com/jax-ml/jax/issues/4798
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: under omnistaging every jax.numpy call inside jit is staged out, so jnp.minimum of two static Python ints returns a tracer, and jnp.arange(n_actual) then needs a concrete size (ConcretizationTypeError); static shape arithmetic must use Python/NumPy (the answer points to the omnistaging notes on using jax.numpy for shapes)
# expect: line 15 — jnp.minimum on static shape values inside a jitted function; its traced result is used as the size of jnp.arange two lines later
# checked: ran, reproduces (ConcretizationTypeError in jnp.arange)
import jax.numpy as jnp
import jax
from functools import partial

@partial(jax.jit, static_argnums=(0,))
def foo(n, x):
    n_aval = jnp.shape(x)[0]
    n_actual = jnp.minimum(n_aval, n)
    print(type(n), type(n_aval), type(n_actual))
    return jnp.arange(n_actual)

n = 5
x = jnp.arange(10)
foo(n,x)
