# source: https://github.com/jax-ml/jax/issues/5186
# framework: jax
# kind: jax-concretization
# negative: the accepted fix — compute the length with NumPy (np.add), which is not staged, so it stays concrete
# mimics: positive/2132_jax_arange_of_jnp_add_under_jit.py
# expect: no finding
# checked: ran, no error
import jax.numpy as jnp
import numpy as np
from jax import jit


def test_arange():
  n = np.add(2, 3)
  return jnp.arange(n)

test = jit(test_arange)

test()
