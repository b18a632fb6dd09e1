# source: https://github.com/jax-ml/jax/issues/1052
# framework: jax
# family: E
# kind: where-nan-gradient
# pitfall: arctan2(a, a) has a nan derivative at a == 0; where discards that element's value but not its nan gradient
# expect: line 12 — arctan2(a, a) at a == 0 has a nan derivative that where does not mask
# checked: ran, reproduces (gradient [0, nan, 0])
import jax.numpy as np
from jax import grad

def test(a):
  b = np.arctan2(a,a)
  print(b)

  temp = np.array([0.,1.,0.])
  c = np.where(temp>0.5,0.,b)
  print(c)

  return np.sum(c)

aa = np.array([3.,0.,-5.])
print(test(aa))
print(grad(test)(aa))
