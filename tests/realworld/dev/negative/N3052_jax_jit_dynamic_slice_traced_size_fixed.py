# source: https://github.com/jax-ml/jax/issues/1007
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: NEGATIVE: the two alternatives given in the answer: mark k static (recompile per k), or mask with jnp.where over a fixed-length arange
# expect: no finding
# checked: not run (TF/JAX not installed); the answer's code, both variants verbatim
from __future__ import print_function
from functools import partial

import jax
import jax.numpy as np

@partial(jax.jit, static_argnums=(1,))
def sum_first_k(a, k):
  return np.sum(jax.lax.dynamic_slice(a, (0,), (k,)))

print(sum_first_k(np.arange(3.0), 2))


@jax.jit
def sum_first_k(a, k):
  n = len(a)
  return np.sum(np.where(np.arange(n) < k, a, 0))

print(sum_first_k(np.arange(3.0), 2))
