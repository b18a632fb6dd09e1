# source: https://github.com/jax-ml/jax/issues/204
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: pad_to_length is a jit argument (a tracer) used as a dimension of lax.full; the array shape depends on a traced value
# expect: line 15 — a shape built from a traced jit argument (pad_to_length)
# checked: not run (TF/JAX not installed); the thread shows the printed shape `(Traced<ShapedArray(int32[]):JaxprTrace(level=-1/1)>, 2)` and a traceback out of lax._dynamic_slice_indices under jit; the linked fix (jax PR 205) makes lax.full require concrete shapes
import numpy as onp
import jax.numpy as np
from jax import jit, lax


def dynamic_update_slice_test(first_row, pad_to_length):
  width = first_row.shape[0]
  empty_array = lax.full((pad_to_length,width), 0, first_row.dtype)
  first_row_reshaped = np.reshape(first_row, (1,width))
  print(empty_array.shape)
  return lax.dynamic_update_slice(empty_array, first_row_reshaped, start_indices=[0])


print(dynamic_update_slice_test(onp.array([1,2]),4))

dynamic_update_slice_test_jit = jit(dynamic_update_slice_test)
dynamic_update_slice_test_jit(onp.array([1,2]),4)
