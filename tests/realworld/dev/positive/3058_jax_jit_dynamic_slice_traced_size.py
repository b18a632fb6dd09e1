# source: https://github.com/jax-ml/jax/issues/1007
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the slice size k of lax.dynamic_slice is a traced jit argument; XLA needs every intermediate shape fixed, so the slice cannot be traced
# expect: line 17 — slice size taken from a traced jit argument
# checked: not run (TF/JAX not installed); the thread (answer by mattjj) says this dynamic_slice raises under jit because the shapes of all intermediates must be fixed; the asker first hit the same error with a[:k] (question code reconstructed, see comment)
import jax
import jax.numpy as np


# [reconstructed] the stored excerpt shows only the answer; the question's function is the
# answer's first alternative without static_argnums (the answer: "that lax.dynamic_slice alone is
# a problem" under jit).
@jax.jit
def sum_first_k(a, k):
  return np.sum(jax.lax.dynamic_slice(a, (0,), (k,)))


print(sum_first_k(np.arange(3.0), 2))
