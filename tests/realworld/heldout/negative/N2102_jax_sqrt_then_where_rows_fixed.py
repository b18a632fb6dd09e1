# source: https://github.com/jax-ml/jax/issues/347
# framework: jax
# kind: where-nan-gradient
# negative: the accepted fix — apply where before the sqrt so the sqrt never sees zero (test_succeed in the same thread)
# mimics: positive/2102_jax_sqrt_then_where_rows.py
# expect: no finding
# checked: ran, finite gradient
import jax.numpy as np
from jax import grad

def test_succeed(x):
  x = np.sum(x ** 2, axis=1)
  ones = np.ones_like(x)
  x = np.sqrt(np.where(x > 0.5, x, ones))
  return np.sum(x)

x = np.array([[1, 2], [3, 4], [0, 0]], dtype=np.float32)

print('Test np.where then np.sqrt = {}'.format(test_succeed(x)))
print('Gradient:')
print(grad(test_succeed)(x))
