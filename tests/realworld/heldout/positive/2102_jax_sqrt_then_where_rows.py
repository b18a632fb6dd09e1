# source: https://github.com/jax-ml/jax/issues/347
# framework: jax
# family: E
# kind: where-nan-gradient
# pitfall: the row norm sqrt(sum(x**2)) is computed for a zero row before where replaces it with ones; the gradient of the discarded branch is nan at zero and leaks through where
# expect: line 12 — sqrt of a row sum that is zero for one row, computed before the where guard
# checked: ran, reproduces (nan rows in the gradient)
import jax.numpy as np
from jax import grad

def test_fail(x):
  x = np.sqrt(np.sum(x ** 2, axis=1))
  ones = np.ones_like(x)
  x = np.where(x > 0.5, x, ones)
  return np.sum(x)

x = np.array([[1, 2], [3, 4], [0, 0]], dtype=np.float32)

print('Test np.sqrt then np.where = {}'.format(test_fail(x)))
print('Gradient:')
print(grad(test_fail)(x))
