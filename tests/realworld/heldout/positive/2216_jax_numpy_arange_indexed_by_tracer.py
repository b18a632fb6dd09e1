# source: https://github.com/jax-ml/jax/issues/553
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: np.arange(x.shape[0]) is a plain NumPy array, and indexing it with the traced x inside jit asks NumPy to convert the tracer, which fails (the answer: "indexing an ndarray with one of our tracers ... the ndarray is asked what to do with this weird type"; use lax.iota)
# expect: line 13 — a NumPy array indexed by a traced array inside a jitted function
# checked: ran, reproduces (the indexing raises under jit: TracerArrayConversionError on current jax)
import numpy as np
from jax import jit


def fun(x):
  r = np.arange(x.shape[0])[x]
  return r

jit(fun)(np.array([0, 1, 2], dtype=np.int32))
