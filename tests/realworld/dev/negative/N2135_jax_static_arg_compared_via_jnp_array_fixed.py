# source: https://github.com/jax-ml/jax/issues/3974
# framework: jax
# kind: jax-concretization
# negative: the working version from the thread — the static argument is compared as a classic NumPy array, which is not staged
# mimics: positive/2135_jax_static_arg_compared_via_jnp_array.py
# expect: no finding
# checked: ran, no error
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=(0,))
def foo(n):
    if np.array(n) > 1:
        return jnp.ones(1)
    return jnp.zeros(1)

foo(3)
