# source: https://github.com/jax-ml/jax/issues/553
# framework: jax
# kind: jax-tracer-conversion
# negative: the workaround from the answer — build the index range with lax.iota, a traced-compatible array, before indexing with x
# mimics: positive/2216_jax_numpy_arange_indexed_by_tracer.py
# expect: no finding
# checked: ran, no error
import jax.numpy as np
from jax import jit, lax


def fun(x):
  r = lax.iota(np.int32, x.shape[0])[x]
  return r

jit(fun)(np.array([0, 1, 2], dtype=np.int32))
