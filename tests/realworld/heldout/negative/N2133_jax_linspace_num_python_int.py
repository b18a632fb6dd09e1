# source: https://github.com/jax-ml/jax/issues/5208
# framework: jax
# kind: jax-concretization
# negative: the reporter's working variant from the same thread — num_steps is a Python int, so jnp.linspace gets a concrete count under jit
# mimics: positive/2133_jax_linspace_num_from_jnp_maximum.py
# expect: no finding
# checked: ran, no error
import jax
import jax.numpy as jnp


@jax.jit
def grid1():
    print('re-compiling ...')
    t0, tf, num_steps = 0., 1., 10
    ts = jnp.linspace(t0, tf, num_steps + 1)
    return ts

print(grid1())
